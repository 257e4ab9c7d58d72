import { randomBytes } from 'node:crypto';
import type { Services } from '../../src/container';
import type { DataType } from '../../src/domain/model-tree';

/** A published (or other status) reusable component in the library project. */
export async function libraryComponent(
  services: Services,
  opts: { label?: string; dataType?: DataType; status?: 'draft' | 'published' | 'retired'; ownerId?: number | null; units?: string | null } = {},
) {
  return services.db.transaction((manager) =>
    services.catalog.createComponent(manager, {
      label: opts.label ?? `Component ${randomBytes(3).toString('hex')}`,
      dataType: opts.dataType ?? 'XdString',
      description: null,
      units: opts.units ?? null,
      status: opts.status ?? 'published',
      ownerId: opts.ownerId ?? null,
    }),
  );
}
