import { createHash } from 'node:crypto';
import { lockModel } from '../db/queries/catalog.sql';
import { archiveCurrentUnless, insertCurrent } from '../db/queries/schemas.sql';
import { query } from '../db/sql';
import type { Tx } from '../db/transaction';
import type { Clock } from './clock';

/** The archive of published model schemas (`published_schemas`), kept apart from the hosting service so that the
 * package service, which records, and the hosting service, which reads through it, do not import each other. */

const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** Where the package code records each schema it publishes. */
export class SchemaArchive {
  constructor(private readonly clock: Clock) {}

  /** Makes `content` the model's current schema (the model row is locked: one version is current at a time). */
  async record(manager: Tx, dmCtId: string, content: Buffer): Promise<string> {
    const sha256 = sha256Of(content);
    await query(manager, lockModel(dmCtId));
    const now = this.clock.now();
    await query(manager, archiveCurrentUnless(dmCtId, sha256, now));
    await query(manager, insertCurrent(dmCtId, sha256, content, now));
    return sha256;
  }
}
