import { bool, obj, str } from '../lib/json-schema';

/** parseGenerationRequest's and parseAsyncFlag's body fields (also accepted in the query string). */
export const generationBodySchema = obj({ profile: str(), async: bool }, ['profile', 'async']);
