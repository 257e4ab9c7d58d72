import { obj, type JsonSchema } from '../lib/json-schema';

/** Interface B's success envelope around a presenter's `data`. */
export const appSuccessSchema = (data: JsonSchema): JsonSchema => obj({ success: { const: true }, data });
