import { constant, obj, type JsonSchema } from '../lib/json-schema';

/** Interface B's success envelope around a presenter's `data`. */
export const appSuccessSchema = <S extends JsonSchema>(data: S) => obj({ success: constant(true), data });
