import type { DataModelDocument } from '../domain/model-tree';
import { appSlug, composeSpec, envExample, graphdbRepositoryConfig, type AppProfile } from './app-compose';
import { generateAppReadme } from './app-readme';
import { prettyJson } from './escape';
import { zipFiles, type PackageFile } from './zip-files';
import { toYaml } from './yaml-text';

/** The application package: a ZIP that runs this service in the application role for the given models, with
 * their schema library (`dmlib/`), the app config, the compose project of the profile and a README. */

interface AppModel {
  model: DataModelDocument;
  files: PackageFile[];
}

export interface AppPackageArgs {
  appName: string;
  profile: AppProfile;
  models: AppModel[];
}

/** Model files an application serves from dmlib/ (schema files and RDF, as interface B stores them). */
const DMLIB_SUFFIXES = ['.xsd', '.html', '.owl', '.ttl', '.rdf'];

function dmlibFiles(entry: AppModel): PackageFile[] {
  const base = `dm-${entry.model.ctId}`;
  const files = entry.files.filter((file) => DMLIB_SUFFIXES.some((suffix) => file.name === `${base}${suffix}`));
  if (!files.some((file) => file.name === `${base}.xsd`)) throw new Error(`Model ${entry.model.ctId} has no ${base}.xsd to serve`);
  return files;
}

function appConfig(args: AppPackageArgs, dmlib: Map<string, PackageFile[]>): Record<string, unknown> {
  return {
    app_name: args.appName,
    profile: args.profile,
    role: 'app',
    triplestore: args.profile === 'os' ? 'oxigraph' : 'graphdb',
    models: args.models.map(({ model }) => ({
      dm_ct_id: model.ctId,
      title: model.title,
      language: model.language,
      files: (dmlib.get(model.ctId) ?? []).map((file) => `dmlib/${file.name}`),
    })),
  };
}

/** The files of the application package, paths relative to its top folder. */
function appPackageFiles(args: AppPackageArgs): PackageFile[] {
  if (args.appName.trim() === '') throw new Error('An application needs a name');
  if (args.profile !== 'os' && args.profile !== 'enterprise') throw new Error(`Unknown profile "${String(args.profile)}"`);
  if (args.models.length === 0) throw new Error('An application serves at least one data model');
  const models = [...new Map(args.models.map((entry) => [entry.model.ctId, entry])).values()];
  const unique = { ...args, models };
  const dmlib = new Map(models.map((entry) => [entry.model.ctId, dmlibFiles(entry)]));
  const files: PackageFile[] = [
    { name: 'README.md', content: generateAppReadme(unique) },
    { name: 'app.json', content: prettyJson(appConfig(unique, dmlib)) },
    {
      name: 'docker-compose.yml',
      content: toYaml(composeSpec(args.appName, args.profile), [`${args.appName}: SDC4 application (${args.profile} profile)`]),
    },
    { name: '.env.example', content: envExample(args.profile) },
    ...[...dmlib.values()].flat().map((file) => ({ name: `dmlib/${file.name}`, content: file.content })),
  ];
  if (args.profile === 'enterprise') files.push({ name: 'graphdb/repository-config.ttl', content: graphdbRepositoryConfig(args.appName) });
  return files;
}

export async function generateAppPackage(args: AppPackageArgs): Promise<Buffer> {
  const folder = appSlug(args.appName);
  return zipFiles(appPackageFiles(args).map((file) => ({ name: `${folder}/${file.name}`, content: file.content })));
}
