import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { startTestApp, type TestApp } from '../support/app';
import { waitFor } from '../support/wait';
import { zipEntries } from '../support/zip';
import { LIBRARY_UNITS_COUNT } from '../../src/db/migrations/0023-units-library';

/** Units as first-class drafts (`/dmgen/units/`, clients.md): created free, read and edited like the other drafts,
 * and named by ct_id in a component's `units` (drafts or an assembly mint ref), whose unit then is the Units' label
 * in every artefact. */

let app: TestApp;
let storageDir: string;
beforeAll(async () => {
  storageDir = await mkdtemp(path.join(tmpdir(), 'drafts-units-'));
  app = await startTestApp({ storageDir });
});
afterAll(async () => {
  await app.close();
  await rm(storageDir, { recursive: true, force: true });
});

const UNITS = '/api/v1/dmgen/units/';

async function modeler(credits: number, scopes?: string[]) {
  const { user, client } = await signedIn(app.url, app.services, { credits });
  const key = await issueKey(client, scopes ? { scopes } : {});
  const tool = client.withToken(key.key);
  const project = (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string;
  return { user, client, tool, project, key: key.key };
}

const balance = async (tool: HttpClient) => (await tool.get('/api/v1/wallet/')).body.balance_credits as number;

async function newUnits(tool: HttpClient, project: string, label = 'kg'): Promise<string> {
  const res = await tool.post(UNITS, { project, label, description: 'Mass', public: false });
  expect(res.status).toBe(201);
  return res.body.ct_id;
}

describe('Units drafts over REST', () => {
  it('creates for free, lists with next, reads and patches label, description, enums and pred_obj', async () => {
    const { tool, project } = await modeler(1_000);
    const created = await tool.post(UNITS, { project, label: 'kg', description: 'Mass', enums: 'kilogram\nkilo', public: false });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ct_id: expect.any(String), id: expect.any(Number), type: 'units', label: 'kg', published: false, project });
    expect(created.headers.get('x-sdc-estimated-cost')).toBeNull();
    expect(await balance(tool)).toBe(1_000);
    const ctId = created.body.ct_id as string;

    await newUnits(tool, project, 'persons');
    const first = await tool.get(`${UNITS}?page_size=1`);
    // The caller's own two first, then the library's reference Units.
    expect(first.body).toMatchObject({ count: 2 + LIBRARY_UNITS_COUNT, previous: null });
    expect(first.body.results.map((r: { label: string }) => r.label)).toEqual(['kg']);
    const next = new URL(first.body.next);
    expect((await tool.get(next.pathname + next.search)).body.results.map((r: { label: string }) => r.label)).toEqual(['persons']);

    const po = await tool.post('/api/v1/dmgen/pred-objs/', { predicate: 1, object_uri: 'http://qudt.org/vocab/unit/KiloGM', project });
    const patched = await tool.patch(`${UNITS}${ctId}/`, {
      label: 'kg ',
      description: 'Mass in kilograms',
      enums: 'kilogram',
      pred_obj: [po.body.id],
    });
    expect(patched.status).toBe(200);
    expect((await tool.get(`${UNITS}${ctId}/`)).body).toMatchObject({
      label: 'kg',
      description: 'Mass in kilograms',
      enums: 'kilogram',
      pred_obj: [po.body.id],
    });
  });

  it('a read-only key reads but cannot write (403)', async () => {
    const owner = await modeler(0);
    const ctId = await newUnits(owner.tool, owner.project);
    const reader = owner.client.withToken((await issueKey(owner.client, { scopes: ['read'] })).key);
    expect((await reader.get(`${UNITS}${ctId}/`)).status).toBe(200);
    const post = await reader.post(UNITS, { label: 'g' });
    expect([post.status, post.body.error_type]).toEqual([403, 'key_scope']);
    expect((await reader.patch(`${UNITS}${ctId}/`, { label: 'g' })).status).toBe(403);
    expect((await owner.tool.get(`${UNITS}${ctId}/`)).body.label).toBe('kg');
  });

  it('another user’s draft is not found, to read, to edit or to name as units', async () => {
    const owner = await modeler(0);
    const other = await modeler(1_000);
    const ctId = await newUnits(owner.tool, owner.project);
    expect((await other.tool.get(`${UNITS}${ctId}/`)).status).toBe(404);
    expect((await other.tool.patch(`${UNITS}${ctId}/`, { label: 'lb' })).status).toBe(404);
    expect((await other.tool.get(UNITS)).body.count).toBe(LIBRARY_UNITS_COUNT);
    const minted = await other.tool.post('/api/v1/dmgen/xd-quantities/', { project: other.project, label: 'Weight', units: ctId });
    expect(minted.body.units).toBe(ctId);
  });

  it('refuses bad input with 400 naming the field, and a published Units with 409', async () => {
    const { tool, project } = await modeler(0);
    const missing = await tool.post(UNITS, { project, description: 'No unit' });
    expect([missing.status, missing.body.error_type, Object.keys(missing.body.details)]).toEqual([400, 'invalid_request', ['label']]);
    const ctId = await newUnits(tool, project);
    const twice = await tool.patch(`${UNITS}${ctId}/`, { enums: 'kilo\nkilo' });
    expect([twice.status, Object.keys(twice.body.details)]).toEqual([400, ['enums']]);
    const unknownLink = await tool.patch(`${UNITS}${ctId}/`, { pred_obj: [999_999] });
    expect([unknownLink.status, Object.keys(unknownLink.body.details)]).toEqual([400, ['pred_obj']]);
    expect((await tool.post(`${UNITS}${ctId}/publish/`)).body.published).toBe(true);
    const frozen = await tool.patch(`${UNITS}${ctId}/`, { label: 'g' });
    expect([frozen.status, frozen.body.error_type]).toEqual([409, 'published_immutable']);
  });
});

describe('a component naming a Units by ct_id', () => {
  it('stores the Units label, so the generated XSD carries "kg", not the ct_id; other text stays the unit', async () => {
    const { tool, project, key } = await modeler(10_000);
    const kg = await newUnits(tool, project, 'kg');
    const persons = await newUnits(tool, project, 'persons');
    const weight = await tool.post('/api/v1/dmgen/xd-quantities/', { project, label: 'Weight', public: false, units: kg });
    expect([weight.status, weight.body.units]).toEqual([201, 'kg']);
    const visits = await tool.post('/api/v1/dmgen/xd-counts/', { project, label: 'Visits', units: 'visits' });
    expect(visits.body.units).toBe('visits');
    const household = await tool.post('/api/v1/dmgen/xd-counts/', { project, label: 'Household', units: 'people' });
    expect((await tool.patch(`/api/v1/dmgen/xd-counts/${household.body.ct_id}/`, { units: persons })).body.units).toBe('persons');

    const root = await tool.post('/api/v1/dmgen/clusters/', {
      project,
      label: 'Measures',
      xdquantity: [weight.body.ct_id],
      xdcount: [visits.body.ct_id, household.body.ct_id],
    });
    const dm = await tool.post('/api/v1/dmgen/dms/', { project, title: 'Units model', data: root.body.ct_id });
    expect((await tool.post(`/api/v1/dmgen/dms/${dm.body.ct_id}/publish/`)).status).toBe(200);
    expect((await tool.post(`/api/v1/dmgen/dms/${dm.body.ct_id}/generate/`)).status).toBe(200);
    const res = await fetch(`${app.url}/api/v1/catalog/dm/${dm.body.ct_id}/package/`, { headers: { authorization: `Token ${key}` } });
    const xsd = (await zipEntries(Buffer.from(await res.arrayBuffer()))).get(`dm-${dm.body.ct_id}.xsd`)!.toString();
    for (const unit of ['kg', 'persons', 'visits']) expect(xsd).toMatch(new RegExp(`name="xdstring-value"[^>]*fixed="${unit}"`));
    expect(xsd).not.toContain(`fixed="${kg}"`);
    expect(xsd).not.toContain(`fixed="${persons}"`);
  });

  it('assembly mint refs with units: <Units ct_id> give the catalog tree the label, other text stays', async () => {
    const { tool, project } = await modeler(10_000);
    const kg = await newUnits(tool, project, 'kg');
    const queued = await tool.post('/api/v1/dmgen/assemble/', {
      title: 'Assembled units',
      data: {
        label: 'Body',
        components: [
          { label: 'Mass', data_type: 'XdQuantity', units: kg },
          { label: 'Height', data_type: 'XdQuantity', units: 'cm' },
          { label: 'Weight', data_type: 'XdQuantity', units: kg },
        ],
      },
    });
    expect(queued.status).toBe(202);
    const done = await waitFor(
      async () => (await tool.get(`/api/v1/dmgen/tasks/${queued.body.task_id}/`)).body,
      (body) => ['completed', 'failed'].includes(body.status),
      60_000,
      'the assembly task',
    );
    expect(done.status).toBe('completed');
    const tree = (await tool.get(`/api/v1/catalog/dm/${done.dm_ct_id}/`)).body.components;
    expect(tree[0].children.map((c: { label: string; units: string }) => [c.label, c.units])).toEqual([
      ['Mass', 'kg'],
      ['Height', 'cm'],
      ['Weight', 'kg'],
    ]);
  });
});

describe('Units drafts in GraphQL', () => {
  it('creates, lists, reads and updates through the same services', async () => {
    const { tool } = await modeler(0);
    const created = await tool.graphql(`mutation ($input: DraftUnitsInput!) { createDraftUnits(input: $input) { ctId label enums published } }`, {
      input: { label: 'mmol/L', enums: ['mmol per litre'] },
    });
    const units = created.body.data.createDraftUnits;
    expect(units).toMatchObject({ label: 'mmol/L', enums: ['mmol per litre'], published: false });
    const updated = await tool.graphql(
      `mutation ($ctId: String!) { updateDraftUnits(ctId: $ctId, input: { description: "Glucose", enums: null }) { description enums } }`,
      {
        ctId: units.ctId,
      },
    );
    expect(updated.body.data.updateDraftUnits).toEqual({ description: 'Glucose', enums: [] });
    const read = await tool.graphql(
      `query ($ctId: String!) { draftUnits(ctId: $ctId) { label description } draftUnitsList { count results { ctId } } }`,
      {
        ctId: units.ctId,
      },
    );
    expect(read.body.data.draftUnits).toEqual({ label: 'mmol/L', description: 'Glucose' });
    expect(read.body.data.draftUnitsList.count).toBe(1 + LIBRARY_UNITS_COUNT);
    expect(read.body.data.draftUnitsList.results[0]).toEqual({ ctId: units.ctId });
    const bad = await tool.graphql(`mutation { createDraftUnits(input: { label: "" }) { ctId } }`);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'invalid_request' });
    expect((await tool.get(`${UNITS}${units.ctId}/`)).body.description).toBe('Glucose');
  });
});
