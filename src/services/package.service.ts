import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { ALL_ARTIFACTS, type ArtifactKind, type PackageArtifactKind } from '../packages/artifacts';
import { DataModel } from '../entities/data-model.entity';
import { conflict, DomainError, forbidden, notFound } from '../lib/errors';
import type { Links } from '../lib/links';
import type { AppProfile } from '../packages/app-compose';
import { markImported, modelPackageRow } from '../db/queries/packages.sql';
import { query, queryOne } from '../db/sql';
import { transactionRetried, type Queryable, type Tx } from '../db/transaction';
import { generateSkeleton } from '../packages/model-package';
import { zipFiles, type PackageFile } from '../packages/zip-files';
import { flattenShippedJsonLd } from '../packages/model-jsonld';
import { isEmptyShacl } from '../packages/model-shacl';
import type { DataModelDocument } from '../domain/model-tree';
import type { ContextualComponent } from '../packages/contextual-slots';
import type { CpuPool } from '../workers/pool';
import type { AppPackageTask, ModelPackageTask, PortableFile } from '../workers/package.task';
import { parsePackageXsd, readPackage } from '../packages/package-import';
import { readPackageFiles } from '../packages/package-reader';
import type { Skeleton } from '../packages/skeleton';
import type { ImportResult } from '../presenters/catalog.presenter';
import type { CatalogService, Viewer } from './catalog.service';
import type { Clock } from './clock';
import type { ContextualService } from './contextual.service';
import type { SchemaArchive } from './schema-archive';
import { readBytes, splitStoredPath, type Storage, type StorageArea } from '../storage/storage';

/** A model's files: the artefacts served one by one (generated from its tree and contextual components, the same
 * bytes each time; an imported model's own files, byte for byte), the package ZIP stored once under
 * packages/ in the storage (an imported package's own files), the application ZIP of each profile stored once under
 * apps/, and the import of real packages into the catalog. The storage (STORAGE_URL) is every node's: a package a
 * worker generated downloads through any gateway. */

export interface Artifact {
  fileName: string;
  contentType: string;
  content: string | Buffer;
}

export interface StoredFile {
  fileName: string;
  path: string;
}

const packageFileName = (dmCtId: string) => `dm-${dmCtId}.zip`;
const appFileName = (dmCtId: string, profile: AppProfile) => `dm-${dmCtId}-app-${profile}.zip`;

/** A stored path (`packages/dm-x.zip`, as data_models keeps it) as the storage's area and name. */
function storedAt(relative: string | null | undefined): { area: StorageArea; name: string } | null {
  return relative ? splitStoredPath(relative.split(path.sep).join('/')) : null;
}

export class PackageService {
  constructor(
    private readonly db: DataSource,
    private readonly catalog: CatalogService,
    private readonly clock: Clock,
    private readonly storage: Storage,
    private readonly links: Links,
    private readonly contextual: ContextualService,
    private readonly schemas: SchemaArchive,
    private readonly cpu: CpuPool,
    /** PACKAGE_TASK_BUDGET_MS: rendering and zipping a package in the pool. */
    private readonly budgetMs: number,
  ) {}

  packageUrl(dmCtId: string): string {
    return this.links.model(dmCtId, 'package');
  }

  appUrl(dmCtId: string, profile: AppProfile): string {
    return `${this.links.model(dmCtId, 'app')}?profile=${profile}`;
  }

  /** Builds and stores the package of a published model once; later calls return the stored one. A unit of work
   * of its own: the package file is written under the model's fixed name, so a retried transaction rewrites it. */
  async generatePackage(dmCtId: string): Promise<{ packageUrl: string; path: string }> {
    return transactionRetried(this.db, (tx) => this.generatePackageIn(tx, dmCtId));
  }

  private async generatePackageIn(manager: Tx, dmCtId: string): Promise<{ packageUrl: string; path: string }> {
    const model = await this.lockModel(manager, dmCtId);
    if (!model.published)
      throw conflict('not_published', 'A package is generated for a published model only: publish it first.', { dm_ct_id: dmCtId });
    const previous = model.generated ? storedAt(model.packagePath) : null;
    if (previous && (await this.storage.exists(previous.area, previous.name)))
      return { packageUrl: this.packageUrl(dmCtId), path: this.storage.locate(previous.area, previous.name) };
    const relative = `packages/${packageFileName(dmCtId)}`;
    const document = await this.catalog.loadModelDocument(manager, dmCtId);
    const { files, zip } = await this.render(document, await this.contextual.forModel(manager, dmCtId), true);
    await this.storage.put('packages', packageFileName(dmCtId), zip!);
    await manager.update(DataModel, model.id, { generated: true, packagePath: relative, updatedAt: this.clock.now() });
    await this.schemas.record(manager, dmCtId, asBytes(fileNamed(files, `dm-${dmCtId}.xsd`)));
    return { packageUrl: this.packageUrl(dmCtId), path: this.storage.locate('packages', packageFileName(dmCtId)) };
  }

  /** The package URL when the package is stored, else null. */
  async isGenerated(dmCtId: string): Promise<string | null> {
    const model = await this.db.manager.findOneBy(DataModel, { ctId: dmCtId });
    const stored = model?.generated ? storedAt(model.packagePath) : null;
    return stored && (await this.storage.exists(stored.area, stored.name)) ? this.packageUrl(dmCtId) : null;
  }

  /** One artefact of a model the viewer may see: an imported model's own file when its package has it. */
  async artifact(dmCtId: string, kind: ArtifactKind | PackageArtifactKind, viewer: Viewer): Promise<Artifact> {
    const { contentType, file } = ALL_ARTIFACTS[kind];
    const fileName = file(dmCtId);
    if (kind === 'skeleton') return { fileName, contentType, content: (await this.skeleton(dmCtId, viewer)).xml };
    await this.catalog.requireVisibleModel(dmCtId, viewer);
    const content = fileNamed(await this.modelFiles(this.db, dmCtId), fileName).content;
    // An imported package's older nested JSON-LD is served flat, as readers take it; a flat one byte for byte.
    if (kind === 'jsonld')
      return { fileName, contentType, content: flattenShippedJsonLd(asBytes({ name: fileName, content }).toString('utf8')) ?? content };
    return { fileName, contentType, content };
  }

  /** The skeleton of a model the viewer may see: built on an imported package's own instance, which its schema accepts. */
  async skeleton(dmCtId: string, viewer: Viewer): Promise<Skeleton> {
    const document = await this.catalog.visibleModelDocument(dmCtId, viewer);
    const contextual = await this.contextual.forModel(this.db, dmCtId);
    const own = (await this.storedFiles(this.db, dmCtId))?.find((f) => f.name === `dm-${dmCtId}.xml`);
    return generateSkeleton(document, contextual, own ? asBytes(own).toString('utf8') : undefined);
  }

  /** The current schema of a model (no visibility check: the caller publishes only published models' schemas). */
  async modelXsd(dmCtId: string): Promise<Buffer> {
    return asBytes(fileNamed(await this.modelFiles(this.db, dmCtId), `dm-${dmCtId}.xsd`));
  }

  /** The package ZIP of a model the viewer may see: the stored one, else the same files zipped on the fly (the model's
   * generation, which the owner starts and which stores it, is left as it is). */
  async packageZip(dmCtId: string, viewer: Viewer): Promise<{ fileName: string; content: Buffer }> {
    await this.catalog.requireVisibleModel(dmCtId, viewer);
    const row = await queryOne(this.db, modelPackageRow(dmCtId));
    const stored = row?.generated ? storedAt(row.package_path) : null;
    const content = (stored && (await readBytes(this.storage, stored.area, stored.name))) ?? (await zipFiles(await this.modelFiles(this.db, dmCtId)));
    return { fileName: packageFileName(dmCtId), content };
  }

  /** A model's files rendered (and zipped) in the CPU pool within PACKAGE_TASK_BUDGET_MS. */
  private async render(
    document: DataModelDocument,
    contextual: ContextualComponent[],
    zip: boolean,
  ): Promise<{ files: PackageFile[]; zip: Buffer | null }> {
    const out = await this.cpu.run<ModelPackageTask, { files: PortableFile[]; zip: Uint8Array | null }>(
      'package',
      'modelPackage',
      { document, contextual, zip },
      this.budgetMs,
    );
    return {
      files: out.files.map((f) => ({ name: f.name, content: typeof f.content === 'string' ? f.content : asBuffer(f.content) })),
      zip: out.zip && asBuffer(out.zip),
    };
  }

  /** Every file of a model: an imported model's stored files (the generated ones fill what its package lacks). */
  private async modelFiles(on: Queryable, dmCtId: string): Promise<PackageFile[]> {
    const stored = await this.storedFiles(on, dmCtId);
    const { files: generated } = await this.render(
      await this.catalog.loadModelDocument(on, dmCtId),
      await this.contextual.forModel(on, dmCtId),
      false,
    );
    if (!stored) return generated;
    // A shipped SHACL file that states nothing (the studio's error stub) gives way to the generated shapes.
    const kept = stored.filter((f) => !isEmptyShacl(f.name, f.content));
    const own = new Set(kept.map((f) => f.name));
    return [...kept, ...generated.filter((f) => !own.has(f.name))];
  }

  /** An imported model's own files by their base names, or null for a generated model. */
  private async storedFiles(on: Queryable, dmCtId: string): Promise<PackageFile[] | null> {
    const row = await queryOne(on, modelPackageRow(dmCtId));
    if (!row?.imported || !row.package_path) return null;
    const stored = storedAt(row.package_path);
    const bytes = stored && (await readBytes(this.storage, stored.area, stored.name));
    // Regenerating an imported model's files would change its schema: a lost package is an error, not a fallback.
    if (!bytes) {
      throw new DomainError(404, 'not_generated', 'The stored package of this imported model is missing: import it again.', { dm_ct_id: dmCtId });
    }
    const files = await readZipBytes(bytes);
    return files.map((f) => ({ name: path.posix.basename(f.name), content: f.content }));
  }

  /** The stored package of a model the viewer may see; 404 until it has been generated. */
  async storedPackage(dmCtId: string, viewer: Viewer): Promise<StoredFile & { content: Buffer }> {
    const model = await this.catalog.requireVisibleModel(dmCtId, viewer);
    const stored = model.generated ? storedAt(model.packagePath) : null;
    const content = stored && (await readBytes(this.storage, stored.area, stored.name));
    if (!stored || !content) {
      throw new DomainError(404, 'not_generated', 'The package of this model has not been generated yet.', { dm_ct_id: dmCtId });
    }
    return { fileName: packageFileName(dmCtId), path: this.storage.locate(stored.area, stored.name), content };
  }

  /** Builds and stores the application of a published model for one profile, once; its name is the model's title. */
  async generateApp(dmCtId: string, profile: AppProfile): Promise<{ appName: string; appUrl: string; path: string }> {
    return transactionRetried(this.db, async (manager) => {
      const model = await this.lockModel(manager, dmCtId);
      if (!model.published)
        throw conflict('not_published', 'An application is generated for a published model only: publish it first.', { dm_ct_id: dmCtId });
      const name = appFileName(dmCtId, profile);
      const relative = `apps/${name}`;
      if (!(await this.storage.exists('apps', name))) {
        const document = await this.catalog.loadModelDocument(manager, dmCtId);
        const files = await this.modelFiles(manager, dmCtId);
        const task: AppPackageTask = { appName: model.title, profile, models: [{ model: document, files }] };
        const zip = await this.cpu.run<AppPackageTask, Uint8Array>('package', 'appPackage', task, this.budgetMs);
        await this.storage.put('apps', name, asBuffer(zip));
      }
      if (model.appPath !== relative) await manager.update(DataModel, model.id, { appPath: relative, updatedAt: this.clock.now() });
      return { appName: model.title, appUrl: this.appUrl(dmCtId, profile), path: this.storage.locate('apps', name) };
    });
  }

  /** The stored application of a model, for its owner or staff (who generated it, and paid at generation). */
  async downloadApp(dmCtId: string, profile: AppProfile, viewer: Viewer & { isStaff: boolean }): Promise<StoredFile & { content: Buffer }> {
    const model = await this.catalog.requireVisibleModel(dmCtId, viewer);
    if (model.ownerId !== viewer.userId && !viewer.isStaff) throw forbidden('Only the model’s owner or staff can download its application.');
    const name = appFileName(dmCtId, profile);
    const content = await readBytes(this.storage, 'apps', name);
    if (!content) {
      throw new DomainError(404, 'not_generated', `The ${profile} application of this model has not been generated yet.`, {
        dm_ct_id: dmCtId,
        profile,
      });
    }
    return { fileName: name, path: this.storage.locate('apps', name), content };
  }

  /** The row lock makes concurrent generations of one model wait for each other. */
  private async lockModel(manager: Tx, dmCtId: string): Promise<DataModel> {
    const model = await manager.findOne(DataModel, { where: { ctId: dmCtId }, lock: { mode: 'pessimistic_write' } });
    if (!model) throw notFound('Data model');
    return model;
  }

  /** Registers a real SDC4 package (ZIP or directory) in the catalog with its original ct_ids, and keeps its files:
   * the model's schema and artefacts are the package's own, and its schema is published as the current one. */
  async importPackage(pathToZipOrDir: string): Promise<ImportResult & { xsdName: string }> {
    let parsed;
    try {
      const { xsdName, xsd, files } = await readPackage(pathToZipOrDir);
      parsed = { xsdName, files, model: parsePackageXsd(xsd) };
    } catch (error) {
      throw new DomainError(400, 'invalid_package', `Cannot import ${pathToZipOrDir}: ${(error as Error).message}`, {}, { cause: error });
    }
    const result = await this.catalog.registerImported(parsed.model);
    const relative = `packages/${packageFileName(result.dmCtId)}`;
    await this.storage.put('packages', packageFileName(result.dmCtId), await zipFiles(parsed.files));
    const xsd = parsed.files.find((f) => f.name === parsed.xsdName)!;
    await transactionRetried(this.db, async (manager) => {
      await query(manager, markImported(result.dmCtId, relative, this.clock.now()));
      await this.schemas.record(manager, result.dmCtId, asBytes(xsd));
    });
    return { ...result, xsdName: parsed.xsdName };
  }
}

/** The files of a stored package ZIP (read through a private temporary file: the reader takes a path). */
/** Bytes back from a pool thread (a Uint8Array) as a Buffer, without a copy. */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function readZipBytes(bytes: Buffer): Promise<PackageFile[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sdc-package-'));
  try {
    await writeFile(path.join(dir, 'package.zip'), bytes);
    return await readPackageFiles(path.join(dir, 'package.zip'), true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const asBytes = (file: PackageFile) => (typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content);

function fileNamed(files: PackageFile[], name: string): PackageFile {
  const found = files.find((f) => f.name === name);
  if (!found) throw new Error(`The model's files have no ${name}`);
  return found;
}
