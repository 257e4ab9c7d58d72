import type { JsonSchema, Static } from '../../../src/lib/json-schema';
import { assemblyJobSchema, builtModelSchema, estimateSchema } from '../../../src/presenters/assembly.schema';
import {
  renderAssemblyJob,
  renderBuiltModel,
  renderEstimate,
  type AssemblyJobView,
  type EstimateView,
} from '../../../src/presenters/assembly.presenter';
import {
  clusterSchema,
  componentSchema,
  dmgenComponentSchema,
  indexSchema,
  linkedPageSchema,
  modelSchema,
  modelSummarySchema,
  pageSchema,
} from '../../../src/presenters/catalog.schema';
import {
  renderCluster,
  renderComponent,
  renderDmgenComponent,
  renderIndex,
  renderLinkedPage,
  renderModel,
  renderModelSummary,
  renderPage,
  type ComponentView,
  type ModelView,
} from '../../../src/presenters/catalog.presenter';
import {
  clusterDraftSchema,
  componentDraftSchema,
  modelDraftSchema,
  namespaceSchema,
  predicateSchema,
  predObjSchema,
  unitsDraftSchema,
} from '../../../src/presenters/drafts.schema';
import {
  renderClusterDraft,
  renderComponentDraft,
  renderModelDraft,
  renderNamespace,
  renderPredicate,
  renderPredObj,
  type ComponentDraftView,
  type EntryView,
} from '../../../src/presenters/drafts.presenter';
import { renderUnitsDraft } from '../../../src/presenters/drafts-units.presenter';
import { generationSchema } from '../../../src/presenters/generation.schema';
import { renderGeneration, type GenerationView } from '../../../src/presenters/generation.presenter';
import { instanceSchema } from '../../../src/presenters/instance.schema';
import { renderInstance } from '../../../src/presenters/instance.presenter';
import { jobSchema } from '../../../src/presenters/job.schema';
import { renderJob, type JobView } from '../../../src/presenters/job.presenter';
import { issuedKeySchema, keySchema, legacyKeySchema } from '../../../src/presenters/key.schema';
import { renderIssuedKey, renderKey, renderLegacyKey, type KeyView, type LegacyKeyView } from '../../../src/presenters/key.presenter';
import { modelerSchema, projectSchema } from '../../../src/presenters/projects.schema';
import { renderModeler, renderProject } from '../../../src/presenters/projects.presenter';
import { schemaVersionsSchema } from '../../../src/presenters/schema-hosting.schema';
import { renderSchemaVersions } from '../../../src/presenters/schema-hosting.presenter';
import { jwkSchema } from '../../../src/presenters/signing.schema';
import { renderJwk } from '../../../src/presenters/signing.presenter';
import { skeletonSchema } from '../../../src/presenters/skeleton.schema';
import { renderSkeleton } from '../../../src/presenters/skeleton.presenter';
import { taskSchema } from '../../../src/presenters/task.schema';
import { renderTask } from '../../../src/presenters/task.presenter';
import { rdfUploadSchema, schemaUploadSchema, storedFileSchema } from '../../../src/presenters/upload.schema';
import { renderRdfUpload, renderSchemaUpload, renderStoredFile } from '../../../src/presenters/upload.presenter';
import { sessionSchema, userSchema } from '../../../src/presenters/user.schema';
import { renderSession, renderUser, type UserView } from '../../../src/presenters/user.presenter';
import { vaasSchema } from '../../../src/presenters/vaas.schema';
import { renderVaas, type VaasView } from '../../../src/presenters/vaas.presenter';
import { validationSchema } from '../../../src/presenters/validation.schema';
import { renderValidation, type ValidationView } from '../../../src/presenters/validation.presenter';
import { walletSchema } from '../../../src/presenters/wallet.schema';
import { renderWallet, type WalletView } from '../../../src/money';
import type { Links } from '../../../src/lib/links';
import { keyDocumentSchema, receiptStatusSchema, renderKeyDocument, renderReceiptStatus, renderTrigger, triggerSchema } from '../../../src/vsl';
import { schemaErrors, undeclaredFields } from '../../support/schema-check';

/** Each REST renderer's output, for sample views covering its optional fields, matches the schema the OpenAPI
 * document gives its route (the same ajv check the integration suites run on every response), and names no field
 * the schema leaves out. tsc checks the types (src/presenters: `renderX(view): Static<typeof xSchema>`); this
 * checks what the types cannot: formats of enums and patterns, and fields spread in from elsewhere. */

const at = new Date('2026-03-01T12:00:00.000Z');
const links = { catalog: (p: string) => `http://studio/api/v1/catalog/${p}/` } as unknown as Links;

const key: KeyView = {
  id: 7,
  name: 'ci',
  prefix: 'sdc_abcdefgh',
  scopes: ['read', 'build'],
  spendLimitCredits: null,
  spentCredits: 0,
  expiresAt: at,
  expired: false,
  revoked: false,
  status: 'active',
  created: at,
  lastUsed: null,
};

const job = (patch: Partial<JobView> = {}): JobView => ({
  ctId: 'job1',
  url: 'http://studio/api/v1/jobs/job1/',
  kind: 'assemble',
  status: 'completed',
  step: 'done',
  costCredits: 600,
  result: { dmCtId: 'dm1', modelUrl: 'http://m', catalogUrl: 'http://c', packageUrl: null },
  error: null,
  dataSourceCtId: 'ds1',
  dmCtId: 'dm1',
  taskId: 'task-1',
  created: at,
  updated: at,
  ...patch,
});

const model: ModelView = {
  ctId: 'dm1',
  identifier: 'dm-dm1',
  title: 'Vitals',
  description: null,
  projectName: 'Clinic',
  about: 'http://studio/dm/dm1/',
  created: at,
  updated: at,
  published: true,
  generated: false,
  packageUrl: null,
  contextual: {},
  artifacts: { xsd: 'http://x' } as ModelView['artifacts'],
  root: {
    type: 'Cluster',
    ctId: 'c1',
    label: 'Root',
    name: 'Root',
    parentCluster: null,
    description: null,
    units: null,
    repeated: false,
    children: [
      {
        type: 'XdString',
        ctId: 'x1',
        label: 'Name',
        name: 'Name',
        parentCluster: 'c1',
        description: 'd',
        units: null,
        repeated: false,
        children: [],
      },
    ],
  },
};

const component: ComponentView = {
  ctId: 'x1',
  label: 'Name',
  description: null,
  componentType: 'XdString',
  projectName: 'Clinic',
  reuseRef: '@Clinic:Name',
  units: null,
  status: 'retired',
  successor: 'x2',
  projectCtId: 'p1',
  published: true,
  isPublic: true,
  predObj: [],
  created: at,
  updated: at,
};

const entry: EntryView = {
  id: 3,
  ctId: 'e1',
  label: 'Temp',
  description: null,
  status: 'draft',
  published: false,
  isPublic: false,
  projectCtId: 'p1',
  projectName: 'Clinic',
  predObj: [1, 2],
  created: at,
  updated: at,
};

const temporal: ComponentDraftView = {
  ...entry,
  dataType: 'XdTemporal',
  units: null,
  enums: ['a'],
  enumDescr: { a: 'first' },
  allow: ['date'],
  referenceRanges: [],
};

const estimate = (withKey: boolean): EstimateView => ({
  estimateId: '0123456789ab',
  mode: 'mixed',
  reuse: [{ path: 'data.components[0]', ctId: 'x1', label: 'Name', type: 'XdString' }],
  mint: [{ path: 'data.components[1]', label: 'Age', dataType: 'XdCount' }],
  problems: [
    { path: 'data.components[2]', ctId: 'x9', problem: 'retired', message: 'retired', successor: 'x10' },
    { path: 'data.components[3]', ctId: 'x8', problem: 'unknown', message: 'unknown', successor: null },
  ],
  modelCredits: 500,
  mintCredits: 100,
  totalCredits: 600,
  totalUsd: '0.600',
  wallet: { balanceCredits: 1000, canPay: true },
  key: withKey
    ? { scopes: ['read', 'build'], canSpend: false, spendLimitCredits: 1000, spentCredits: 0, remainingCredits: 1000, withinLimit: true }
    : null,
});

const assemblyJob: AssemblyJobView = {
  mode: 'mixed',
  jobCtId: 'job1',
  jobUrl: 'http://studio/api/v1/jobs/job1/',
  taskId: 'task-1',
  dataSourceCtId: 'ds1',
  status: 'queued',
  newComponents: 1,
  estimatedCost: '0.600',
  estimatedCostCredits: 600,
  balanceCredits: 400,
  job: {} as AssemblyJobView['job'],
};

const validation: ValidationView = {
  instanceId: 'i-ev-abc',
  dmCtId: 'dm1',
  dmLabel: 'Vitals',
  validationStatus: 'valid_with_ev',
  storageType: 'generic',
  autoCorrectedFields: ['line-3'],
  validationErrors: null,
  rdfSyncStatus: 'disabled',
};

const generation = (app: boolean): GenerationView => ({
  dmCtId: 'dm1',
  modelUrl: 'http://m',
  catalogUrl: 'http://c',
  packageUrl: 'http://p',
  profile: app ? 'os' : null,
  appName: app ? 'vitals' : null,
  appUrl: app ? 'http://a' : null,
});

const vaas = (signed: boolean): VaasView => ({
  valid: true,
  mode: 'recover',
  schema: { ctId: 'dm1', title: 'Vitals' },
  structuralErrors: 0,
  semanticErrors: 1,
  recovered: signed,
  recoveredXml: signed ? '<x/>' : null,
  errors: [{ line: 3, message: 'bad' }],
  corrections: [{ line: 3, ev: 'EV_NULL', element: 'sdc4:NI', original: 'N/A' }],
  sign: signed
    ? {
        signed: true,
        signedXml: '<x/>',
        signature: { algorithm: 'Ed25519', issuer: 'studio', timestamp: at.toISOString(), schemaCtId: 'dm1', evCount: 1, keyId: 'k1' },
        verification: { publicKeyUrl: 'http://k', verifyCommand: 'sdc verify' },
      }
    : null,
  packageUrl: signed ? 'http://pkg' : null,
  packageExpiresAt: signed ? at.toISOString() : null,
  chargedCredits: 1,
  balanceRemainingCredits: 999,
});

const wallet: WalletView = {
  balance: '1.000',
  balanceCredits: 1000,
  heldCredits: 0,
  autoReload: { enabled: true, thresholdCredits: 500, amountCredits: 10000 },
  updatedAt: at,
};

const cases: Array<[string, JsonSchema, unknown]> = [
  ['renderKey', keySchema, renderKey(key)],
  ['renderIssuedKey', issuedKeySchema, renderIssuedKey({ ...key, key: 'sdc_plaintext' })],
  ['renderLegacyKey', legacyKeySchema, renderLegacyKey({ token: 't', prefix: 'p', created: at })],
  ['renderUser', userSchema, renderUser({ id: 1, email: 'a@b.c', name: 'A', isStaff: false })],
  ['renderSession', sessionSchema, renderSession({ user: { id: 1, email: 'a@b.c', name: 'A', isStaff: true }, csrfToken: 'c', expiresAt: at })],
  ['renderProject', projectSchema, renderProject({ ctId: 'p1', name: 'Clinic', ownerEmail: null, isPublic: true, isDefaultLibrary: false })],
  [
    'renderModeler',
    modelerSchema,
    renderModeler({
      name: 'A',
      email: 'a@b.c',
      project: { ctId: 'p1', name: 'Clinic', ownerEmail: 'a@b.c', isPublic: false, isDefaultLibrary: false },
    }),
  ],
  ['renderJob (assemble)', jobSchema, renderJob(job())],
  ['renderJob (queued)', jobSchema, renderJob(job({ status: 'queued', step: null, result: null, dmCtId: null }))],
  ['renderTask (completed)', taskSchema, renderTask({ job: job(), title: 'Vitals', artifacts: model.artifacts })],
  ['renderTask (failed)', taskSchema, renderTask({ job: job({ status: 'failed', error: 'boom' }), title: null, artifacts: null })],
  ['renderEstimate (key)', estimateSchema, renderEstimate(estimate(true))],
  ['renderEstimate (no key)', estimateSchema, renderEstimate(estimate(false))],
  [
    'renderBuiltModel',
    builtModelSchema,
    renderBuiltModel({
      mode: 'reuse',
      model,
      published: true,
      generated: false,
      modelUrl: 'http://m',
      packageUrl: null,
      finalizeError: 'disk full',
      estimatedCostCredits: 500,
      balanceCredits: 500,
    }),
  ],
  ['renderAssemblyJob', assemblyJobSchema, renderAssemblyJob(assemblyJob)],
  ['renderModelSummary', modelSummarySchema, renderModelSummary(model)],
  ['renderModel', modelSchema, renderModel(model)],
  [
    'renderPage(renderComponent)',
    pageSchema(componentSchema),
    renderPage({ count: 1, page: 1, pageSize: 50, results: [component] }, renderComponent),
  ],
  [
    'renderLinkedPage(renderDmgenComponent)',
    linkedPageSchema(dmgenComponentSchema),
    renderLinkedPage({ count: 3, page: 2, pageSize: 1, results: [component] }, renderDmgenComponent, (n) => `http://studio/?page=${n}`),
  ],
  [
    'renderCluster',
    clusterSchema,
    renderCluster({
      ctId: 'c1',
      label: 'Root',
      description: null,
      projectName: 'Clinic',
      reuseRef: '@Clinic:Root',
      status: 'published',
      successor: null,
      childCount: 2,
    }),
  ],
  [
    'renderIndex',
    indexSchema,
    renderIndex(
      {
        dataTypes: ['XdString'],
        components: 1,
        clusters: 1,
        dataModels: 1,
        projects: [{ name: 'Clinic', isLibrary: false, components: 1, clusters: 1, dataModels: 1 }],
      },
      links,
    ),
  ],
  ['renderComponentDraft (temporal)', componentDraftSchema, renderComponentDraft(temporal)],
  ['renderComponentDraft (string)', componentDraftSchema, renderComponentDraft({ ...temporal, dataType: 'XdString', units: 'u1' })],
  [
    'renderClusterDraft',
    clusterDraftSchema,
    renderClusterDraft({
      ...entry,
      children: [
        { kind: 'component', ctId: 'x1', dataType: 'XdString' },
        { kind: 'cluster', ctId: 'c2', dataType: null },
      ],
    }),
  ],
  [
    'renderModelDraft',
    modelDraftSchema,
    renderModelDraft({
      id: 1,
      ctId: 'dm1',
      title: 'Vitals',
      description: null,
      published: false,
      generated: false,
      rootClusterCtId: 'c1',
      dublinCore: {},
      projectCtId: 'p1',
      projectName: 'Clinic',
      created: at,
      updated: at,
    }),
  ],
  ['renderNamespace', namespaceSchema, renderNamespace({ id: 1, abbrev: 'dcterms', uri: 'http://purl.org/dc/terms/' })],
  ['renderPredicate', predicateSchema, renderPredicate({ id: 2, nsPrefix: 'dcterms', className: 'title', uri: 'http://purl.org/dc/terms/title' })],
  [
    'renderPredObj',
    predObjSchema,
    renderPredObj({ id: 3, predicateId: 2, predicateName: 'dcterms:title', objectUri: 'http://o', poName: null, projectCtId: 'p1' }),
  ],
  ['renderUnitsDraft', unitsDraftSchema, renderUnitsDraft({ ...entry, enums: ['kg', 'kilogram'] })],
  ['renderGeneration (package)', generationSchema, renderGeneration(generation(false))],
  ['renderGeneration (app)', generationSchema, renderGeneration(generation(true))],
  ['renderValidation', validationSchema, renderValidation(validation)],
  [
    'renderInstance',
    instanceSchema,
    renderInstance({
      ...validation,
      rdfSyncAttempts: 0,
      rdfSyncError: null,
      rdfSyncedAt: null,
      graphUri: 'urn:x:i-ev-abc',
      corrections: [{ line: 3 }],
      json: { a: 1 },
      originalXml: '<x/>',
      correctedXml: '<x/>',
      createdAt: at.toISOString(),
    }),
  ],
  ['renderStoredFile', storedFileSchema, renderStoredFile({ filename: 'a.zip', path: 'zip/a.zip', size: 3 })],
  [
    'renderSchemaUpload',
    schemaUploadSchema,
    renderSchemaUpload({ storedFiles: [{ filename: 'dm-1.xsd', path: 'dmlib/dm-1.xsd', size: 3 }], errors: [{ filename: 'x.txt', error: 'bad' }] }),
  ],
  [
    'renderRdfUpload',
    rdfUploadSchema,
    renderRdfUpload({ filename: 'dm-1.ttl', path: 'dmlib/dm-1.ttl', size: 3, graphUri: 'urn:x:dm-1:schema', triplestoreStatus: 'disabled' }),
  ],
  [
    'renderSkeleton',
    skeletonSchema,
    renderSkeleton({
      xml: '<x/>',
      fieldMapping: {
        ctId: 'dm1',
        fields: [
          { placeholder: '{{x1}}', ctId: 'x1', elementName: 'ms-x1', type: 'XdString', datatype: 'xsd:string', label: 'Name', required: true },
        ],
      },
    }),
  ],
  ['renderJwk', jwkSchema, renderJwk({ kid: 'k1', x: 'AAAA', createdAt: at, retiredAt: null })],
  [
    'renderSchemaVersions',
    schemaVersionsSchema,
    renderSchemaVersions({
      dmCtId: 'dm1',
      currentSha256: 'ab',
      schemaUrl: 'http://s',
      versions: [{ sha256: 'ab', size: 10, archivedAt: null, current: true, url: 'http://s?sha256=ab' }],
    }),
  ],
  ['renderVaas (validate)', vaasSchema, renderVaas(vaas(false))],
  ['renderVaas (sign, package)', vaasSchema, renderVaas(vaas(true))],
  ['renderWallet', walletSchema, renderWallet(wallet)],
];

describe('each REST renderer against the schema of its route', () => {
  it.each(cases)('%s matches its schema', (_name, schema, body) => {
    expect(schemaErrors(schema, body)).toEqual([]);
  });

  it.each(cases)('%s sends no field its schema leaves out', (_name, schema, body) => {
    expect(undeclaredFields(schema, body)).toEqual([]);
  });

  it('fails a body off its schema and names a field the schema leaves out', () => {
    const body = { ...renderKey(key), id: 'seven', hash: 'x' };
    expect(schemaErrors(keySchema, body)).toEqual(['/id must be integer']);
    expect(undeclaredFields(keySchema, body)).toEqual(['/hash']);
  });
});

/* Checked by tsc (`npm run typecheck`), not by jest. A renderer in src/presenters declares `Static<typeof itsSchema>`
 * as its return type; the renderers that live elsewhere are held to their schema here, and each line expected to
 * fail proves the check bites: tsc fails if one of them compiles. renderSettle declares its return type in src/vsl. */
const renders = <S extends JsonSchema, A extends unknown[]>(_schema: S, render: (...args: A) => Static<S>) => render;

renders(walletSchema, renderWallet);
renders(receiptStatusSchema, renderReceiptStatus);
renders(triggerSchema, renderTrigger);
renders(keyDocumentSchema, renderKeyDocument);

// @ts-expect-error a renderer that forgets a required field (is_staff)
renders(userSchema, (v: UserView) => ({ id: v.id, email: v.email, name: v.name }));
// @ts-expect-error a renderer that sends a Date where the schema says a date-time string
renders(legacyKeySchema, (v: LegacyKeyView) => ({ token: v.token, prefix: v.prefix, created: v.created }));
// @ts-expect-error a renderer that sends null where the schema does not say nullable (prefix)
renders(keySchema, (v: KeyView) => ({ ...renderKey(v), prefix: null }));
// @ts-expect-error a value outside a strEnum
renders(estimateSchema, (v: EstimateView) => ({ ...renderEstimate(v), mode: 'partial' }));
// @ts-expect-error a field of the wrong type inside an array of objects
renders(schemaUploadSchema, () => ({ stored_files: [{ filename: 'a', path: 'b', size: '3' }], errors: [] }));
// The names given as optional may be left out (an Interface B package has no profile, app_name, app_url) ...
renders(generationSchema, () => ({ dm_ct_id: 'd', model_url: 'm', catalog_url: 'c', package_url: null }));
// @ts-expect-error ... and no other
renders(generationSchema, () => ({ dm_ct_id: 'd', model_url: 'm', package_url: null }));
