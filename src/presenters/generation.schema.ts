import { nullable, obj, str, strEnum } from '../lib/json-schema';

/** renderGeneration's body: a package's links, and an application's profile, name and URL after them. */
export const generationSchema = obj(
  {
    dm_ct_id: str(),
    model_url: str(),
    catalog_url: str(),
    package_url: nullable(str()),
    profile: strEnum('os', 'enterprise'),
    app_name: nullable(str()),
    app_url: nullable(str()),
  },
  ['profile', 'app_name', 'app_url'],
);
