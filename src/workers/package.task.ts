import type { DataModelDocument } from '../domain/model-tree';
import type { ContextualComponent } from '../packages/contextual-slots';
import { generateAppPackage, type AppPackageArgs } from '../packages/app-package';
import { generateModelFiles } from '../packages/model-package';
import { zipFiles } from '../packages/zip-files';
import { packageZip, type VaasPackageFiles } from '../packages/vaas-package-zip';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

export interface ModelPackageTask {
  document: DataModelDocument;
  contextual: ContextualComponent[];
  /** Also the package ZIP of the files. */
  zip: boolean;
}

/** Files as they cross threads: a Buffer arrives as a Uint8Array. */
export interface PortableFile {
  name: string;
  content: string | Uint8Array;
}

/** A model's package files rendered (XSD, instance, HTML, Turtle, RDF/XML, SHACL, JSON-LD, JSON, GraphQL, README)
 * and, when asked, zipped: the CPU part of package generation, off the event loop. */
export function modelPackage(task: ModelPackageTask): Promise<Outcome<{ files: PortableFile[]; zip: Uint8Array | null }>> {
  return settle(async () => {
    const files = generateModelFiles(task.document, task.contextual);
    return { files, zip: task.zip ? await zipFiles(files) : null };
  });
}

/** An application package's arguments as they cross threads (each model's files as PortableFile). */
export type AppPackageTask = Omit<AppPackageArgs, 'models'> & {
  models: Array<{ model: AppPackageArgs['models'][number]['model']; files: PortableFile[] }>;
};

/** The application package (its files, compose project, README and the models' schema library) zipped, off the
 * event loop. */
export function appPackage(task: AppPackageTask): Promise<Outcome<Uint8Array>> {
  return settle(() =>
    generateAppPackage({
      ...task,
      models: task.models.map(({ model, files }) => ({
        model,
        files: files.map((f) => ({ name: f.name, content: typeof f.content === 'string' ? f.content : Buffer.from(f.content) })),
      })),
    }),
  );
}

/** A VaaS package (the instance's files and their manifest) zipped, off the event loop. */
export function vaasPackageZip(task: VaasPackageFiles): Promise<Outcome<Uint8Array>> {
  return settle(() => packageZip(task));
}
