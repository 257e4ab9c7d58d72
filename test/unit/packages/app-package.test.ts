import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { Parser } from 'n3';
import { generateAppPackage } from '../../../src/packages/app-package';
import { generateModelFiles } from '../../../src/packages/model-package';
import { readPackageFiles } from '../../../src/packages/package-reader';
import { flatModel, nestedModel } from './package-support';

interface Compose {
  name: string;
  services: Record<string, { image: string; environment?: Record<string, string>; depends_on?: Record<string, unknown>; volumes?: string[] }>;
  volumes: Record<string, unknown>;
}

async function unpack(zip: Buffer) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sdc-app-'));
  const file = path.join(dir, 'app.zip');
  await writeFile(file, zip);
  const files = await readPackageFiles(file);
  await rm(dir, { recursive: true, force: true });
  return new Map(files.map((f) => [f.name, f.content.toString()]));
}

const models = () => [flatModel(), nestedModel()].map((model) => ({ model, files: generateModelFiles(model) }));

describe.each(['os', 'enterprise'] as const)('application package, %s profile', (profile) => {
  let files: Map<string, string>;

  beforeAll(async () => {
    files = await unpack(await generateAppPackage({ appName: 'Clinic Intake "Pilot"', profile, models: models() }));
  });

  it('holds the config, the compose file, the README and the dmlib files of every model, in one folder', () => {
    const expected = [
      'README.md',
      'app.json',
      'docker-compose.yml',
      '.env.example',
      ...['flatmodel0000000000000001', 'nestedmodel00000000000001'].flatMap((ctId) =>
        ['xsd', 'html', 'ttl', 'rdf'].map((ext) => `dmlib/dm-${ctId}.${ext}`),
      ),
      ...(profile === 'enterprise' ? ['graphdb/repository-config.ttl'] : []),
    ];
    expect([...files.keys()].sort()).toEqual(expected.map((name) => `clinic-intake-pilot/${name}`).sort());
  });

  it('configures the app: name, profile and the models it serves', () => {
    const config = JSON.parse(files.get('clinic-intake-pilot/app.json') ?? '');
    expect(config).toMatchObject({ app_name: 'Clinic Intake "Pilot"', profile, role: 'app' });
    expect(config.models.map((m: { dm_ct_id: string }) => m.dm_ct_id)).toEqual(['flatmodel0000000000000001', 'nestedmodel00000000000001']);
    expect(config.models[0].files).toContain('dmlib/dm-flatmodel0000000000000001.xsd');
  });

  it('ships the same schema the model package has', () => {
    const xsd = generateModelFiles(flatModel()).find((f) => f.name.endsWith('.xsd'))?.content;
    expect(files.get('clinic-intake-pilot/dmlib/dm-flatmodel0000000000000001.xsd')).toBe(xsd);
  });

  it("has a compose file that parses and wires the service, Postgres and the profile's triplestore", () => {
    const compose = parseYaml(files.get('clinic-intake-pilot/docker-compose.yml') ?? '') as Compose;
    expect(compose.name).toBe('clinic-intake-pilot');
    const app = compose.services.app;
    expect(app.environment).toMatchObject({ ROLE: 'app', APP_CONFIG: '/config/app.json' });
    expect(app.environment?.DATABASE_URL).toMatch(/^postgres:\/\/sdc:.*@postgres:5432\/sdc_app$/);
    expect(app.volumes).toContain('./dmlib:/data/storage/dmlib');
    expect(compose.services.postgres.image).toBe('postgres:16');
    if (profile === 'os') {
      expect(Object.keys(compose.services).sort()).toEqual(['app', 'postgres', 'triplestore']);
      expect(compose.services.triplestore.image).toMatch(/^ghcr\.io\/oxigraph\/oxigraph:/);
      expect(app.environment).toMatchObject({ TRIPLESTORE_PROTOCOL: 'graph-store', TRIPLESTORE_URL: 'http://triplestore:7878/store' });
    } else {
      expect(Object.keys(compose.services).sort()).toEqual(['app', 'graphdb', 'graphdb-init', 'postgres']);
      expect(compose.services.graphdb.image).toContain('ontotext/graphdb:');
      expect(app.environment).toMatchObject({
        TRIPLESTORE_PROTOCOL: 'graphdb',
        TRIPLESTORE_URL: 'http://graphdb:7200',
        TRIPLESTORE_REPOSITORY: 'sdc4',
      });
      expect(app.depends_on).toHaveProperty('graphdb-init');
      const repository = new Parser().parse(files.get('clinic-intake-pilot/graphdb/repository-config.ttl') ?? '');
      expect(repository.find((q) => q.predicate.value.endsWith('#repositoryID'))?.object.value).toBe('sdc4');
    }
  });

  it('has a README that names the models and the steps to run it', () => {
    const readme = files.get('clinic-intake-pilot/README.md') ?? '';
    expect(readme).toContain('Flat survey (`dm-flatmodel0000000000000001`)');
    expect(readme).toContain('docker compose up -d');
    expect(readme).toContain('cp .env.example .env');
  });
});

describe('application package input', () => {
  it('refuses an application without models or with a model whose files lack the XSD', async () => {
    await expect(generateAppPackage({ appName: 'x', profile: 'os', models: [] })).rejects.toThrow('at least one data model');
    const model = flatModel();
    await expect(generateAppPackage({ appName: 'x', profile: 'os', models: [{ model, files: [] }] })).rejects.toThrow(
      /has no dm-flatmodel0000000000000001\.xsd/,
    );
  });
});
