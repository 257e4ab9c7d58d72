import { createReadStream } from 'node:fs';
import type { DataSource } from 'typeorm';
import type { Logger } from '../lib/logger';
import type { TriplestoreClient } from '../rdf/triplestore';
import { fileRequired, filesRequired, invalidFilename, invalidFileType } from '../lib/app-api-errors';
import { saveGraph } from '../rdf/app-graph-store';
import type { AppStorageQuota } from './app-storage-quota';
import type { FileStore } from '../storage/file-store';
import { readText, type Storage, type StoreArea, type StoredFile } from '../storage/storage';
import { checkRdfFilename, checkSchemaFilename, isZipFilename, RDF_EXTENSIONS, schemaGraphUri, storedZipName } from '../storage/filenames';
import { discardAll, readIncoming, type IncomingFile } from '../storage/incoming-file';
import type { RdfFormat } from '../rdf/rdf-parse';
import { inspectZip, type ZipLimits } from '../storage/zip-inspector';
import { asAppApiError } from '../lib/cpu-errors';
import type { CpuPool, TaskModule } from '../workers/pool';
import type { SchemaGraphResult, SchemaGraphTask } from '../workers/rdf.task';
import type { RdfUploadView, SchemaUploadView, TriplestoreStatus } from '../presenters/upload.presenter';

const RDF_FORMAT: Record<string, RdfFormat> = { '.ttl': 'text/turtle', '.rdf': 'application/rdf+xml' };

/** The three upload endpoints. Each takes files staged on this node, puts what it accepts into the storage (every
 * node's caches hear of it) and always removes the staged files. */
export class UploadsService {
  constructor(
    private readonly db: DataSource,
    private readonly files: FileStore,
    private readonly storage: Storage,
    private readonly pool: CpuPool,
    private readonly triplestore: TriplestoreClient | null,
    private readonly logger: Logger,
    private readonly zipLimits: ZipLimits,
    private readonly quota: AppStorageQuota,
  ) {}

  /** upload/zip: a `.zip` whose every entry passes the integrity and expansion checks, stored under zip/. */
  async uploadZip(file: IncomingFile | undefined, organization: string): Promise<StoredFile> {
    if (!file) throw fileRequired();
    try {
      if (!isZipFilename(file.filename)) throw invalidFileType(file.filename, ['.zip']);
      await inspectZip(file.tempPath, this.zipLimits);
      return await this.store(file, 'zip', storedZipName(file.filename), organization);
    } finally {
      await this.files.discard(file.tempPath);
    }
  }

  /** upload/schema: per file, a bad extension or name, or an XSD that is not safe well-formed XML, goes into
   * `errors` and the rest are stored under dmlib/; a replaced schema leaves the compiled-schema cache. */
  async uploadSchemas(incoming: IncomingFile[], organization: string): Promise<SchemaUploadView> {
    if (incoming.length === 0) throw filesRequired();
    const result: SchemaUploadView = { storedFiles: [], errors: [] };
    try {
      for (const file of incoming) {
        const check = checkSchemaFilename(file.filename);
        if (!check.ok) {
          result.errors.push({ filename: file.filename, error: check.error });
          continue;
        }
        const unsafe = file.filename.endsWith('.xsd')
          ? await this.inPool<Uint8Array, string | null>('validation', 'unsafeSchema', await readIncoming(file))
          : null;
        if (unsafe) {
          result.errors.push({ filename: file.filename, error: unsafe });
          continue;
        }
        const stored = await this.store(file, 'dmlib', file.filename, organization);
        result.storedFiles = [...result.storedFiles.filter((s) => s.filename !== stored.filename), stored];
      }
      return result;
    } finally {
      await discardAll(this.files, incoming);
    }
  }

  /** upload/rdf: parsed first, stored under dmlib/, then the model's schema graph (every stored RDF file of that
   * ct_id together) is kept in Postgres and, when a triplestore is configured, written to it. */
  async uploadRdf(file: IncomingFile | undefined, organization: string): Promise<RdfUploadView> {
    if (!file) throw fileRequired();
    try {
      const check = checkRdfFilename(file.filename);
      if (!check.ok && check.reason === 'extension') throw invalidFileType(file.filename, [...RDF_EXTENSIONS]);
      if (!check.ok) throw invalidFilename(file.filename);
      const uploaded = { filename: file.filename, bytes: await readIncoming(file), format: formatOf(file.filename) };
      const siblings = await this.siblings(check.ctId, file.filename);
      const { ntriples, count, skipped } = await this.inPool<SchemaGraphTask, SchemaGraphResult>('rdf', 'schemaGraph', { uploaded, siblings });
      for (const { filename, message } of skipped)
        this.logger.warn({ file: filename, message }, 'stored RDF file no longer parses; left out of the schema graph');
      const graphUri = schemaGraphUri(check.ctId);
      // The graph's new triples within the organisation's and the overall caps (507 otherwise), before anything is stored.
      const release = await this.quota.admit(organization, { triples: count, bytes: 0, replacesGraph: graphUri });
      let stored: StoredFile;
      try {
        stored = await this.store(file, 'dmlib', file.filename, organization);
        await saveGraph(this.db, { graphUri, source: 'schema', ntriples, tripleCount: count, organization });
      } catch (error) {
        release();
        throw error;
      }
      return { ...stored, graphUri, triplestoreStatus: await this.push(graphUri, ntriples) };
    } finally {
      await this.files.discard(file.tempPath);
    }
  }

  /** The other stored RDF files of the model (`.ttl`, `.rdf`, `_shacl.ttl`), which share its schema graph. */
  private async siblings(ctId: string, except: string): Promise<SchemaGraphTask['siblings']> {
    const names = [`dm-${ctId}.ttl`, `dm-${ctId}.rdf`, `dm-${ctId}_shacl.ttl`].filter((n) => n !== except);
    const documents: SchemaGraphTask['siblings'] = [];
    for (const filename of names) {
      const text = await readText(this.storage, 'dmlib', filename);
      if (text !== null) documents.push({ filename, text, format: formatOf(filename) });
    }
    return documents;
  }

  /** Acknowledged only once the storage has it (committed, for postgres:), and counted toward the organisation's
   * APP_STORAGE_QUOTA_BYTES: a file that would pass it is refused (507) before anything is stored. */
  private async store(file: IncomingFile, area: StoreArea, filename: string, organization: string): Promise<StoredFile> {
    const release = await this.quota.admit(organization, { triples: 0, bytes: file.size, replacesUpload: { area, filename } });
    try {
      const { size } = await this.storage.put(area, filename, createReadStream(file.tempPath));
      await this.quota.recordUpload(organization, area, filename, size);
      return { filename, path: `${area}/${filename}`, size };
    } catch (error) {
      release();
      throw error;
    }
  }

  private async inPool<I, O>(module: TaskModule, name: string, input: I): Promise<O> {
    try {
      return await this.pool.run<I, O>(module, name, input);
    } catch (error) {
      throw asAppApiError(error);
    }
  }

  private async push(graphUri: string, ntriples: string): Promise<TriplestoreStatus> {
    if (!this.triplestore) return 'disabled';
    try {
      await this.triplestore.replaceGraph(graphUri, ntriples, 'text/turtle');
      return 'synced';
    } catch (error) {
      this.logger.warn({ err: error, graphUri }, 'triplestore upload failed; the file is kept');
      return 'failed';
    }
  }
}

function formatOf(filename: string): RdfFormat {
  return RDF_FORMAT[filename.slice(filename.lastIndexOf('.'))];
}
