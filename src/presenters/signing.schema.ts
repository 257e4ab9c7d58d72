import { nullable, obj, str } from '../lib/json-schema';

/** renderJwk's body. */
export const jwkSchema = obj({
  kty: str(),
  crv: str(),
  x: str(),
  kid: str(),
  use: str(),
  alg: str(),
  created_at: str(),
  retired_at: nullable(str()),
});
