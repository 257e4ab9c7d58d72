import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { insertReferenceSchema, referenceSchema } from '../db/queries/reference-schemas.sql';
import { query, queryOne } from '../db/sql';
import type { Logger } from '../lib/logger';

const FETCH_TIMEOUT_MS = 15_000;
const FETCH_MAX_BYTES = 8 * 1024 * 1024;
const LOOKS_LIKE_XSD = /<([A-Za-z_][\w.-]*:)?schema[\s>]/;

export interface ReferenceSchemaOptions {
  /** URL prefixes (namespaces) whose schemas are fetched on first use; nothing else is. */
  allow: string[];
  /** A base URL standing in for every allowed prefix (an internal mirror, or a test server); null fetches the URL itself. */
  mirror: string | null;
}

/** The source a URL is fetched from: itself, or the same path under the mirror. */
export function referenceSource(url: string, options: ReferenceSchemaOptions): string | null {
  const prefix = options.allow.find((allowed) => url.startsWith(allowed));
  if (prefix === undefined) return null;
  return options.mirror === null ? url : `${options.mirror.replace(/\/+$/, '')}/${url.slice(prefix.length)}`;
}

/**
 * Allow-listed reference schemas, fetched on first use and stored in Postgres with their sha256: every process
 * and every restart after the first fetch reads the stored copy and needs no network.
 */
export class ReferenceSchemaStore {
  private readonly pending = new Map<string, Promise<string | null>>();

  constructor(
    private readonly db: DataSource,
    private readonly options: ReferenceSchemaOptions,
    private readonly logger: Logger,
  ) {}

  async get(url: string): Promise<string | null> {
    const source = referenceSource(url, this.options);
    if (source === null) return null;
    const stored = await queryOne(this.db, referenceSchema(url));
    if (stored) return stored.content;
    let pending = this.pending.get(url);
    if (!pending) {
      pending = this.fetchAndStore(url, source).finally(() => this.pending.delete(url));
      this.pending.set(url, pending);
    }
    return pending;
  }

  private async fetchAndStore(url: string, source: string): Promise<string | null> {
    const content = await fetchText(source).catch((error: unknown) => {
      this.logger.warn({ url, source, err: error }, 'reference schema fetch failed');
      return null;
    });
    if (content === null) return null;
    const sha256 = createHash('sha256').update(content).digest('hex');
    // Another process may have stored it meanwhile: its copy wins, so every process validates against one text.
    await query(this.db, insertReferenceSchema(url, sha256, content, source));
    this.logger.info({ url, source, sha256, bytes: Buffer.byteLength(content) }, 'reference schema fetched and stored');
    return (await queryOne(this.db, referenceSchema(url)))?.content ?? null;
  }
}

async function fetchText(source: string): Promise<string> {
  const response = await fetch(source, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  if (!response.ok) throw new Error(`${source} answered ${response.status}`);
  const body = await response.arrayBuffer();
  if (body.byteLength > FETCH_MAX_BYTES) throw new Error(`${source} is larger than ${FETCH_MAX_BYTES} bytes`);
  const text = Buffer.from(body).toString('utf8');
  if (!LOOKS_LIKE_XSD.test(text)) throw new Error(`${source} is not an XML Schema`);
  return text;
}
