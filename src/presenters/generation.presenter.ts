import type { Static } from '../lib/json-schema';
import type { generationSchema } from './generation.schema';
import type { AppProfile } from '../packages/app-compose';

/** A generated package (and, for an application, its download), as both transports show it. */
export interface GenerationView {
  dmCtId: string;
  modelUrl: string;
  catalogUrl: string;
  packageUrl: string | null;
  /** The application's fields; null for a package. */
  profile: AppProfile | null;
  appName: string | null;
  appUrl: string | null;
  /** What an application download charged and the balance after it (REST headers only); absent for a package. */
  charge?: ChargeView | null;
}

/** A charging answer's money, for its X-SDC headers. */
export interface ChargeView {
  estimatedCostCredits: number;
  balanceCredits: number;
}

/** The contract's generate body (REST-compat), also kept as a generation job's result: a package's links, and an
 * application's profile, name and URL after them. */
export function renderGeneration(view: GenerationView): Static<typeof generationSchema> {
  const links = { dm_ct_id: view.dmCtId, model_url: view.modelUrl, catalog_url: view.catalogUrl, package_url: view.packageUrl };
  return view.profile === null ? links : { ...links, profile: view.profile, app_name: view.appName, app_url: view.appUrl };
}
