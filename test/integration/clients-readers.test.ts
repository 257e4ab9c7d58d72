import { readFileSync } from 'node:fs';
import { zipEntries } from '../support/zip';
import { issueKey, signedIn } from '../support/factories';
import type { HttpClient } from '../support/http';
import { libraryComponent } from '../support/catalog-factories';
import { waitFor } from '../support/wait';
import { form, startAppUnderTest, STATE_POPULATION, SP_CT_ID, type AppUnderTest } from './app-helpers';

/** The readers of part 3 of the clients (../shared/spec/clients.md): the sdcreader library of the DCAT and CDIF
 * exporters reading a model's JSON-LD, the FAIR enrichment script's calls in order, and the desktop modeler's Units
 * on number fields, through generation and Interface B. */

let app: AppUnderTest;
beforeAll(async () => {
  app = await startAppUnderTest();
  await app.services.packages.importPackage(STATE_POPULATION);
});
afterAll(async () => {
  await app.close();
});

interface ReadComponent {
  ctId: string;
  sdcType: string;
  label: string;
  dataType: string;
  constraints: Record<string, unknown>;
  links: Map<string, string[]>;
  contains: string[];
}

/** What sdcreader's read_model does with the JSON-LD: index every component by the ct_id of its `@id`, follow every
 * `contains` reference (a missing one is its KeyError), find the root cluster, read the model's metadata. */
function readModel(d: Record<string, any>) {
  const comps = new Map<string, ReadComponent>();
  for (const n of d.components as Array<Record<string, any>>) {
    const ct = (n['@id'] as string).split('mc-')[1];
    expect(ct).toBeTruthy();
    const links = new Map<string, string[]>();
    for (const l of n.semanticLinks ?? []) links.set(l.predicate, [...(links.get(l.predicate) ?? []), l.object]);
    const type = n['@type'] as string;
    comps.set(ct, {
      ctId: ct,
      sdcType: type.endsWith('Type') ? type.slice(0, -4) : type,
      label: n.label,
      dataType: n.dataType ?? '',
      constraints: n.constraints ?? {},
      links,
      contains: (n.contains ?? []).map((m: { '@id': string }) => m['@id'].split('mc-')[1]),
    });
  }
  const contained = new Set([...comps.values()].flatMap((c) => c.contains));
  const size = (c: ReadComponent): number => 1 + c.contains.reduce((n, m) => n + size(comps.get(m)!), 0);
  const leaves: ReadComponent[] = [];
  const walk = (c: ReadComponent) => {
    for (const m of c.contains) {
      const child = comps.get(m);
      if (!child) throw new Error(`KeyError: ${m}`);
      if (child.sdcType === 'Cluster') walk(child);
      else leaves.push(child);
    }
  };
  const roots = [...comps.values()].filter((c) => c.sdcType === 'Cluster' && !contained.has(c.ctId) && c.contains.length);
  roots.forEach(walk); // every reference of every cluster resolves before size() reads them
  roots.sort((a, b) => size(b) - size(a));
  if (!roots.length) throw new Error('no root cluster in the package');
  return { title: d.label || d.metadata['dc:title'], metadata: (d.metadata ?? {}) as Record<string, string>, root: roots[0], comps, leaves };
}

async function modeler(credits: number) {
  const { user, client } = await signedIn(app.url, app.services, { credits });
  await app.services.db.query('UPDATE users SET name = $2 WHERE id = $1', [user.id, 'Ada Lovelace']);
  const key = await issueKey(client);
  const tool = client.withToken(key.key);
  const project = (await tool.get('/api/v1/auth/modeler/')).body.project_ct_id as string;
  return { user, tool, project, key: key.key };
}

async function created(tool: HttpClient, route: string, body: Record<string, unknown>): Promise<{ ct_id: string; id: number }> {
  const res = await tool.post(route, body);
  expect([route, res.status]).toEqual([route, 201]);
  return res.body;
}

async function jsonld(dmCtId: string, key?: string) {
  const res = await fetch(`${app.url}/api/v1/catalog/dm/${dmCtId}/jsonld/`, key ? { headers: { authorization: `Token ${key}` } } : {});
  expect(res.status).toBe(200);
  return { text: await res.text(), type: res.headers.get('content-type') };
}

const libraryUnits = async (tool: HttpClient) => {
  const listed = (await tool.get('/api/v1/dmgen/units/?page_size=200')).body.results as Array<{ ct_id: string; label: string }>;
  return new Map(listed.map((u) => [u.label, u.ct_id]));
};

describe('the flat JSON-LD as sdcreader reads it', () => {
  it('an assembled model: every component once, references, units, identifier and Dublin Core metadata', async () => {
    const { tool } = await modeler(5_000);
    const weight = await libraryComponent(app.services, { label: 'Body weight', dataType: 'XdQuantity', units: 'kg' });
    const site = await libraryComponent(app.services, { label: 'Site', dataType: 'XdString' });
    const res = await tool.post('/api/v1/dmgen/assemble/', {
      title: 'Weighing',
      description: 'One weighing',
      data: { label: 'Weighing data', components: [{ ct_id: weight.ctId }, { ct_id: site.ctId }] },
      generate: false,
    });
    expect(res.status).toBe(200);
    const doc = JSON.parse((await jsonld(res.body.ct_id)).text);
    expect(doc).toMatchObject({ '@id': `sdc4:dm-${res.body.ct_id}`, identifier: res.body.ct_id, label: 'Weighing', description: 'One weighing' });
    expect(doc.metadata).toMatchObject({
      'dc:title': 'Weighing',
      'dc:description': 'One weighing',
      'dc:creator': 'Ada Lovelace',
      'dc:language': 'en-US',
      'dc:date': expect.any(String),
    });
    const ids = doc.components.map((c: { '@id': string }) => c['@id']);
    expect(new Set(ids).size).toBe(ids.length);
    const model = readModel(doc);
    expect(model.title).toBe('Weighing');
    expect(model.root.label).toBe('Weighing data');
    expect(model.leaves.map((l) => [l.label, l.sdcType, l.dataType])).toEqual([
      ['Body weight', 'XdQuantity', 'xsd:decimal'],
      ['Site', 'XdString', 'xsd:string'],
    ]);
    expect(model.leaves[0].constraints.units).toMatchObject({ '@type': 'Units', label: 'Body weight_units', value: 'kg' });
  });

  it('a drafted model: nested and reused clusters once, enumerations, semantic links, the drafts API Dublin Core', async () => {
    const { tool, project, key } = await modeler(10_000);
    const units = await libraryUnits(tool);
    const sex = await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'Sex', public: false });
    const count = await created(tool, '/api/v1/dmgen/xd-counts/', { project, label: 'Household size', units: units.get('people'), public: false });
    const ns = (await tool.get('/api/v1/dmgen/namespaces/?page_size=200')).body.results as Array<{ abbrev: string }>;
    expect(ns.map((n) => n.abbrev)).toContain('dcterms');
    const predicate = await tool.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'dcterms', class_name: 'subject' });
    expect([200, 201]).toContain(predicate.status);
    const po = await created(tool, '/api/v1/dmgen/pred-objs/', {
      predicate: predicate.body.id,
      object_uri: 'http://purl.obolibrary.org/obo/NCIT_C28421',
      po_name: 'sex',
      project,
    });
    expect(
      (await tool.patch(`/api/v1/dmgen/xd-strings/${sex.ct_id}/`, { enums: 'Male\nFemale', enum_descr: '1: Male\n2: Female', pred_obj: [po.id] }))
        .status,
    ).toBe(200);
    const person = await created(tool, '/api/v1/dmgen/clusters/', { project, label: 'Person', xdstring: [sex.ct_id], public: false });
    const root = await created(tool, '/api/v1/dmgen/clusters/', {
      project,
      label: 'Household',
      xdcount: [count.ct_id],
      clusters: [person.ct_id],
      public: false,
    });
    const dm = await created(tool, '/api/v1/dmgen/dms/', {
      project,
      title: 'Household survey',
      data: root.ct_id,
      description: 'Who lives here',
      dc_subject: 'households; census',
      publisher: 'Example Bureau',
      rights: 'CC-BY http://creativecommons.org/licenses/by/4.0/',
    });
    // A draft is its owner's: anonymous readers do not see it.
    expect((await fetch(`${app.url}/api/v1/catalog/dm/${dm.ct_id}/jsonld/`)).status).toBe(404);
    const served = await jsonld(dm.ct_id, key);
    expect(served.type).toMatch(/^application\/ld\+json/);
    const doc = JSON.parse(served.text);
    expect(doc.identifier).toBe(dm.ct_id);
    expect(doc.metadata).toMatchObject({
      'dc:title': 'Household survey',
      'dc:creator': 'Ada Lovelace',
      'dc:subject': 'households; census',
      'dc:publisher': 'Example Bureau',
      'dc:rights': 'CC-BY http://creativecommons.org/licenses/by/4.0/',
    });
    const model = readModel(doc);
    expect(model.root.ctId).toBe(root.ct_id);
    expect(model.leaves.map((l) => l.label)).toEqual(['Household size', 'Sex']);
    const sexRead = model.comps.get(sex.ct_id)!;
    expect(sexRead.constraints).toMatchObject({ enumeration: ['Male', 'Female'], enumerationDescriptions: { Male: '1', Female: '2' } });
    expect(sexRead.links.get('http://purl.org/dc/terms/subject')).toEqual(['http://purl.obolibrary.org/obo/NCIT_C28421']);
    expect(model.comps.get(count.ct_id)!.constraints.units).toMatchObject({ '@type': 'Units', value: 'people' });
  });

  it('an imported package: its older nested file is served flat, with its own identifier and metadata', async () => {
    const doc = JSON.parse((await jsonld(SP_CT_ID)).text);
    expect(doc.identifier).toBe(SP_CT_ID);
    expect(doc.metadata).toMatchObject({ 'dc:creator': 'Timothy Cook', 'dc:rights': 'CC-BY http://creativecommons.org/licenses/by/3.0/' });
    const model = readModel(doc);
    expect(model.title).toBe('StatePopulation');
    expect(model.leaves.map((l) => l.sdcType)).toEqual(['XdString', 'XdCount', 'XdCount', 'XdQuantity']);
    expect(model.leaves[1].links.get('rdfs:isDefinedBy')).toEqual(['https://www.wikidata.org/wiki/Q129341046']);
    // The package ZIP keeps the shipped file byte for byte.
    const zip = await zipEntries(Buffer.from(await (await fetch(`${app.url}/api/v1/catalog/dms/${SP_CT_ID}/artifacts/zip/`)).arrayBuffer()));
    expect(zip.get(`dm-${SP_CT_ID}.jsonld`)).toEqual(readFileSync(`${STATE_POPULATION}/dm-${SP_CT_ID}.jsonld`));
  });
});

describe('the FAIR enrichment flow, call by call', () => {
  it('lists namespaces and unpublished drafts 200 at a time, then GETs and PATCHes each; a published entry is 409', async () => {
    const { tool, project } = await modeler(10_000);
    const units = await libraryUnits(tool);
    // A published model first: its entries are no longer drafts.
    const done = await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'Published field', public: false });
    const doneRoot = await created(tool, '/api/v1/dmgen/clusters/', { project, label: 'Published root', xdstring: [done.ct_id], public: false });
    const doneDm = await created(tool, '/api/v1/dmgen/dms/', { project, title: 'Published model', data: doneRoot.ct_id });
    expect((await tool.post(`/api/v1/dmgen/dms/${doneDm.ct_id}/publish/`)).status).toBe(200);
    const drafts = [
      await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'RIAGENDR', public: false }),
      await created(tool, '/api/v1/dmgen/xd-counts/', { project, label: 'DMDHHSIZ', units: units.get('people'), public: false }),
      await created(tool, '/api/v1/dmgen/xd-quantities/', { project, label: 'BPXSY1', units: units.get('mmHg'), public: false }),
    ];

    const namespaces = await tool.get('/api/v1/dmgen/namespaces/?page_size=200');
    expect(namespaces.status).toBe(200);
    const dcterms = namespaces.body.results.find((n: { abbrev: string }) => n.abbrev === 'dcterms');
    expect(dcterms).toMatchObject({ uri: 'http://purl.org/dc/terms/' });
    expect(namespaces.body.results.find((n: { abbrev: string }) => n.abbrev === 'dct')).toMatchObject({ uri: 'http://purl.org/dc/terms/' });
    const predicate = await tool.post('/api/v1/dmgen/predicates/', { ns_abbrev: 'dcterms', class_name: 'subject' });
    expect([200, 201]).toContain(predicate.status);
    expect(predicate.body).toMatchObject({ ns_prefix: 'dcterms', class_name: 'subject' });
    const po = await created(tool, '/api/v1/dmgen/pred-objs/', {
      predicate: predicate.body.id,
      object_uri: 'http://purl.obolibrary.org/obo/NCIT_C17357',
      po_name: 'nhanes',
      project,
    });

    const listed = await tool.get(`/api/v1/dmgen/components/?project=${project}&published=false&page_size=200`);
    expect(listed.status).toBe(200);
    const rows = listed.body.results as Array<{ ct_id: string; type: string; published: boolean }>;
    expect(rows.every((r) => !r.published)).toBe(true);
    expect(rows.map((r) => r.ct_id)).toEqual(expect.arrayContaining(drafts.map((d) => d.ct_id)));
    expect(rows.map((r) => r.ct_id)).not.toContain(done.ct_id);
    expect(
      (await tool.get(`/api/v1/dmgen/components/?project=${project}&published=true&page_size=200`)).body.results.map(
        (r: { ct_id: string }) => r.ct_id,
      ),
    ).toContain(done.ct_id);
    const slugOf: Record<string, string> = { xdstring: 'xd-strings', xdcount: 'xd-counts', xdquantity: 'xd-quantities' };
    for (const row of rows.filter((r) => slugOf[r.type])) {
      const url = `/api/v1/dmgen/${slugOf[row.type]}/${row.ct_id}/`;
      const got = await tool.get(url);
      expect([url, got.status]).toEqual([url, 200]);
      expect(got.body).toHaveProperty('label');
      const patch: Record<string, unknown> = { label: `${got.body.label} (enriched)`, description: 'From the NHANES codebook', pred_obj: [po.id] };
      if (row.type === 'xdstring') Object.assign(patch, { enums: 'Male\nFemale', enum_descr: '1: Male\n2: Female' });
      const patched = await tool.patch(url, patch);
      expect([url, patched.status]).toEqual([url, 200]);
      expect(patched.body).toMatchObject({ description: 'From the NHANES codebook', pred_obj: [po.id] });
      if (row.type === 'xdstring') expect(patched.body).toMatchObject({ enums: 'Male\nFemale', enum_descr: 'Male: 1\nFemale: 2' });
    }
    const frozen = await tool.patch(`/api/v1/dmgen/xd-strings/${done.ct_id}/`, { label: 'Too late' });
    expect([frozen.status, frozen.body.error_type]).toEqual([409, 'published_immutable']);
    // The two filters cannot disagree; a 201st row per page is refused.
    expect((await tool.get('/api/v1/dmgen/components/?published=false&status=published')).status).toBe(400);
    expect((await tool.get('/api/v1/dmgen/components/?page_size=201')).status).toBe(400);
    expect((await tool.get('/api/v1/catalog/components/?page_size=200')).status).toBe(200);
  });
});

describe('reuse_ref', () => {
  it('differs for two drafts with the same label; a published entry keeps @<project>:<label>', async () => {
    const { tool, project } = await modeler(1_000);
    const a = await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'Twin', public: false });
    const b = await created(tool, '/api/v1/dmgen/xd-strings/', { project, label: 'Twin', public: false });
    const rows = (await tool.get(`/api/v1/catalog/components/?project=${project}&search=Twin`)).body.results as Array<{
      ct_id: string;
      reuse_ref: string;
    }>;
    const refs = new Map(rows.map((r) => [r.ct_id, r.reuse_ref]));
    expect(refs.get(a.ct_id)).toMatch(/^@.+:Twin#/);
    expect(refs.get(a.ct_id)).not.toBe(refs.get(b.ct_id));
    const library = (await tool.get('/api/v1/catalog/components/?project=library&search=Total Population')).body.results as Array<{
      label: string;
      reuse_ref: string;
    }>;
    expect(library.find((r) => r.label === 'Total Population')!.reuse_ref).toBe('@library:Total Population');
  });
});

describe('the Units library on number fields', () => {
  it('lists the reference Units; a number draft needs one, and with one it validates through generate and Interface B', async () => {
    const { tool, project, key } = await modeler(10_000);
    const units = await libraryUnits(tool);
    for (const label of ['people', '/min', 'mmHg', 'kg', 'cm', '%', 'm', 's', 'mol']) expect([label, units.has(label)]).toEqual([label, true]);
    const studio = await tool.get('/api/v1/dmgen/components/?type=units&page_size=200');
    expect(studio.body.results.filter((r: { project_name: string }) => r.project_name === 'library').length).toBe(units.size);

    for (const slug of ['xd-counts', 'xd-quantities', 'xd-floats', 'xd-doubles']) {
      const refused = await tool.post(`/api/v1/dmgen/${slug}/`, { project, label: 'No units', public: false });
      expect([slug, refused.status, Object.keys(refused.body.details ?? {})]).toEqual([slug, 400, ['units']]);
    }
    const pulse = await created(tool, '/api/v1/dmgen/xd-counts/', { project, label: 'Pulse', units: units.get('/min'), public: false });
    expect((await tool.get(`/api/v1/dmgen/xd-counts/${pulse.ct_id}/`)).body.units).toBe('/min');
    expect((await tool.patch(`/api/v1/dmgen/xd-counts/${pulse.ct_id}/`, { units: null })).status).toBe(400);
    const root = await created(tool, '/api/v1/dmgen/clusters/', { project, label: 'Vitals', xdcount: [pulse.ct_id], public: false });
    const dm = await created(tool, '/api/v1/dmgen/dms/', { project, title: 'Pulse check', data: root.ct_id });
    expect((await tool.post(`/api/v1/dmgen/dms/${dm.ct_id}/publish/`)).status).toBe(200);
    expect((await tool.post(`/api/v1/dmgen/dms/${dm.ct_id}/generate/`)).status).toBe(200);
    const pkg = await fetch(`${app.url}/api/v1/catalog/dm/${dm.ct_id}/package/`, { headers: { authorization: `Token ${key}` } });
    const entries = await zipEntries(Buffer.from(await pkg.arrayBuffer()));
    const xsd = entries.get(`dm-${dm.ct_id}.xsd`)!;
    expect(xsd.toString()).toMatch(/name="xdstring-value"[^>]*fixed="\/min"/);

    const uploaded = await app.call('POST', '/api/v1/upload/schema/', { body: form([{ field: 'files', name: `dm-${dm.ct_id}.xsd`, content: xsd }]) });
    expect(uploaded.status).toBe(201);
    const valid = await app.call('POST', '/api/v1/validate/xml/', {
      body: form([{ field: 'file', name: 'pulse.xml', content: entries.get(`dm-${dm.ct_id}.xml`)! }]),
    });
    expect([valid.status, valid.body.data.validation_status]).toEqual([201, 'valid']);
  });
});

describe('a library Unit in a mixed assembly', () => {
  it('answers 202 with status processing, and the minted component carries the Unit', async () => {
    const { tool } = await modeler(10_000);
    const units = await libraryUnits(tool);
    const queued = await tool.post('/api/v1/dmgen/assemble/', {
      title: 'Pulse survey',
      data: { label: 'Pulse', components: [{ label: 'Heart rate', data_type: 'XdCount', units: units.get('/min') }] },
    });
    expect([queued.status, queued.body.status]).toEqual([202, 'processing']);
    const done = await waitFor(
      async () => (await tool.get(`/api/v1/dmgen/tasks/${queued.body.task_id}/`)).body,
      (body) => ['completed', 'failed'].includes(body.status),
      60_000,
      'the assembly task',
    );
    expect(done.status).toBe('completed');
    const tree = (await tool.get(`/api/v1/catalog/dm/${done.dm_ct_id}/`)).body.components;
    expect(tree[0].children.map((c: { label: string; units: string }) => [c.label, c.units])).toEqual([['Heart rate', '/min']]);
  });
});

describe('raw RDF bodies on Interface B upload/rdf/ (the toolkit’s distribution step)', () => {
  const read = (name: string) => readFileSync(`${STATE_POPULATION}/${name}`);
  const raw = (route: string, type: string, body: Buffer | string) =>
    app.call('POST', route, { body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': type } });

  it('stores Turtle named by the model the graph describes, RDF/XML by ?filename=, as the multipart upload does', async () => {
    const ttl = read(`dm-${SP_CT_ID}.ttl`);
    const turtle = await raw('/api/v1/upload/rdf/', 'text/turtle; charset=utf-8', ttl);
    expect(turtle.status).toBe(201);
    expect(turtle.body.data).toMatchObject({ filename: `dm-${SP_CT_ID}.ttl`, path: `dmlib/dm-${SP_CT_ID}.ttl`, size: ttl.length });
    const rdf = read(`dm-${SP_CT_ID}.rdf`);
    const rdfXml = await raw(`/api/v1/upload/rdf/?filename=dm-${SP_CT_ID}.rdf`, 'application/rdf+xml', rdf);
    expect(rdfXml.status).toBe(201);
    expect(rdfXml.body.data).toMatchObject({ filename: `dm-${SP_CT_ID}.rdf`, size: rdf.length, graph_uri: `urn:sdc4:dm-${SP_CT_ID}:schema` });
  });

  it('refuses a raw graph it cannot name, a bad name and a graph that does not parse, with Interface B errors', async () => {
    const unnamed = await raw('/api/v1/upload/rdf/', 'text/turtle', '<https://example.org/a> <https://example.org/b> <https://example.org/c> .\n');
    expect([unnamed.status, unnamed.body.error.code]).toEqual([400, 'INVALID_PARAMETER']);
    const badName = await raw('/api/v1/upload/rdf/?filename=notes.ttl', 'text/turtle', '<a> <b> <c> .');
    expect([badName.status, badName.body.error.code]).toEqual([400, 'INVALID_FILENAME']);
    const broken = await raw('/api/v1/upload/rdf/?filename=dm-brokenrawrdf000000000001.ttl', 'text/turtle', '<a> <b> .');
    expect([broken.status, broken.body.error.code]).toEqual([400, 'PARSING_ERROR']);
  });
});
