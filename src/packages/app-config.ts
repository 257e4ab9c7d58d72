import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '../config';
import type { Logger } from '../lib/logger';
import { parseStorageUrl } from '../lib/storage-url';

/** What a generated application's `app.json` (APP_CONFIG) tells the service at start. */
export interface AppConfig {
  appName: string;
  models: Array<{ dmCtId: string; title: string; files: string[] }>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The fields of app.json the service uses; anything else in it is descriptive. */
function parseAppConfig(text: string): AppConfig {
  const raw: unknown = JSON.parse(text);
  if (!isRecord(raw) || typeof raw.app_name !== 'string' || !Array.isArray(raw.models)) throw new Error('app.json needs app_name and models');
  const models = raw.models.map((model: unknown) => {
    if (!isRecord(model) || typeof model.dm_ct_id !== 'string' || typeof model.title !== 'string' || !isStrings(model.files)) {
      throw new Error('each model in app.json needs dm_ct_id, title and files');
    }
    return { dmCtId: model.dm_ct_id, title: model.title, files: model.files };
  });
  return { appName: raw.app_name, models };
}

/** ROLE=app start: reads APP_CONFIG, says which application this is, and warns about listed model files the
 * storage does not hold (the dmlib mount missing or stale), which would answer 404/422 later. */
export async function loadAppConfig(settings: Settings, logger: Logger): Promise<AppConfig | null> {
  if (settings.app.configPath === null) return null;
  const config = parseAppConfig(await readFile(settings.app.configPath, 'utf8'));
  if (settings.app.name !== null && settings.app.name !== config.appName) {
    logger.warn({ appName: settings.app.name, configured: config.appName }, 'APP_NAME differs from app_name in APP_CONFIG');
  }
  const storage = parseStorageUrl(settings.storageUrl);
  // postgres: the files are checked when a request needs them (the database is not open yet).
  const listed = storage.kind === 'file' ? config.models.flatMap((model) => model.files) : [];
  const root = storage.kind === 'file' ? (storage.dir ?? settings.storageDir) : settings.storageDir;
  const present = await Promise.all(
    listed.map((file) =>
      stat(path.join(root, file)).then(
        (info) => info.isFile(),
        () => false,
      ),
    ),
  );
  const missing = listed.filter((_, i) => !present[i]);
  if (missing.length) logger.warn({ missing, storageDir: root }, 'model files listed in APP_CONFIG are not in the storage');
  logger.info({ app: settings.app.name ?? config.appName, models: config.models.map((model) => model.dmCtId) }, 'application configured');
  return config;
}
