import { foundation } from './0001-foundation';
import { catalog } from './0002-catalog';
import { jobs } from './0003-jobs';
import { app } from './0004-app';
import { appSyncWaiting } from './0005-app-sync-waiting';
import { referenceSchemas } from './0006-reference-schemas';
import { signingKeys } from './0007-signing-keys';
import { moneyHolds } from './0008-money-holds';
import { projects } from './0010-projects';
import { contextualAndSchemas } from './0011-contextual-and-schemas';
import { drafts } from './0012-drafts';
import { vaasPackages } from './0013-vaas-packages';
import { storageBlobs } from './0014-storage-blobs';
import { requestHolds } from './0015-request-holds';
import { jobEvents } from './0016-job-events';
import { appRowStorage } from './0018-app-row-storage';
import { apiKeyChanges } from './0019-api-key-changes';
import { ledgerSweepMarks } from './0020-ledger-sweep-marks';
import { units } from './0021-units';
import { jobEventsRetention } from './0022-job-events-retention';
import { unitsLibrary } from './0023-units-library';
import { vsl } from './0024-vsl';
import { idempotencyOutcomes } from './0025-idempotency-outcomes';
import { paidEntries } from './0026-paid-entries';
import { namespacesPerUser } from './0027-namespaces-per-user';
import { appStorageOwners } from './0028-app-storage-owners';
import { jobPayloadsCamelCase } from './0030-job-payloads-camel-case';
import { appStorageUsage } from './0031-app-storage-usage';
import { appInstanceWrites } from './0032-app-instance-writes';
import { appInstanceCorrectedOnce } from './0033-app-instance-corrected-once';
import { appInstanceJsonText } from './0034-app-instance-json-text';
import { ledgerApplyRequestBatch } from './0035-ledger-apply-request-batch';
import type { Migration } from './migration';

/** Applied in order; never edit one that has shipped, add the next number. 0004 and 0005 belong to the
 * application API (Interface B). */
export const MIGRATIONS: Migration[] = [
  foundation,
  catalog,
  jobs,
  app,
  appSyncWaiting,
  referenceSchemas,
  signingKeys,
  moneyHolds,
  projects,
  contextualAndSchemas,
  drafts,
  vaasPackages,
  storageBlobs,
  requestHolds,
  jobEvents,
  appRowStorage,
  apiKeyChanges,
  ledgerSweepMarks,
  units,
  jobEventsRetention,
  unitsLibrary,
  vsl,
  idempotencyOutcomes,
  paidEntries,
  namespacesPerUser,
  appStorageOwners,
  jobPayloadsCamelCase,
  appStorageUsage,
  appInstanceWrites,
  appInstanceCorrectedOnce,
  appInstanceJsonText,
  ledgerApplyRequestBatch,
];
