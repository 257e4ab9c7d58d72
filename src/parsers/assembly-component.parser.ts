import { DATA_TYPES, isDataType, type DataType } from '../domain/model-tree';
import { codePointLength } from '../lib/text';

/** What a new component of an assembly may carry beyond its label: the SDC4 type and, for a coded value, the codes
 * it may take with their labels. */

/** Source-type words that clients (the agent toolkit's introspection) send as `data_type`, and the SDC4 type each
 * becomes: the first type the toolkit itself counts compatible with the word. */
export const SOURCE_DATA_TYPES: Readonly<Record<string, DataType>> = {
  string: 'XdString',
  integer: 'XdCount',
  decimal: 'XdQuantity',
  date: 'XdTemporal',
  datetime: 'XdTemporal',
  boolean: 'XdBoolean',
};

/** Types whose value an enumeration may restrict (a source word counts as a string once enumerated). */
const ENUMERABLE: ReadonlySet<DataType> = new Set(['XdString', 'XdToken']);

/** One allowed value of an enumerated component: the code an instance carries and the label it stands for. */
export interface EnumerationValue {
  code: string;
  label: string;
}

/** The drafts API's limits on enums, so an assembled component can be edited there afterwards. */
const MAX_ENUMERATION = 500;
const MAX_CODE = 255;
const MAX_CODE_LABEL = 1_000;

type Add = (path: string, message: string) => void;

/** An SDC4 type name as sdc4.xsd spells it, or a source word of the table; anything else is refused naming
 * `<path>.data_type`. */
export function parseComponentDataType(value: unknown, path: string, add: Add): { dataType: DataType; sourceWord: boolean } | null {
  if (isDataType(value)) return { dataType: value, sourceWord: false };
  const word = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (Object.hasOwn(SOURCE_DATA_TYPES, word)) return { dataType: SOURCE_DATA_TYPES[word], sourceWord: true };
  add(`${path}.data_type`, `unknown data type; known: ${DATA_TYPES.join(', ')}, or a source type: ${Object.keys(SOURCE_DATA_TYPES).join(', ')}`);
  return null;
}

/** `enumeration` (an object code → label) as a list in the client's order; absent, null or {} means none. */
export function parseEnumeration(value: unknown, path: string, add: Add): EnumerationValue[] | null {
  if (value === undefined || value === null) return null;
  const at = `${path}.enumeration`;
  if (typeof value !== 'object' || Array.isArray(value)) {
    add(at, 'must be an object mapping each code to its label');
    return null;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return null;
  if (entries.length > MAX_ENUMERATION) {
    add(at, `must have at most ${MAX_ENUMERATION} codes`);
    return null;
  }
  const values: EnumerationValue[] = [];
  for (const [code, label] of entries) {
    if (code.trim() === '' || codePointLength(code) > MAX_CODE) add(at, `codes must be 1 to ${MAX_CODE} characters, not blank`);
    else if (typeof label !== 'string' || codePointLength(label) > MAX_CODE_LABEL)
      add(`${at}.${code}`, `must be a label (a string of at most ${MAX_CODE_LABEL} characters)`);
    else values.push({ code, label });
  }
  return values.length === entries.length ? values : null;
}

/** The type an enumerated component is minted as: XdString for a source word (the codes are the values as the source
 * holds them), XdString or XdToken as named; any other SDC4 type is refused naming `<path>.enumeration`. */
export function enumeratedType(type: { dataType: DataType; sourceWord: boolean }, path: string, add: Add): DataType {
  if (type.sourceWord) return 'XdString';
  if (!ENUMERABLE.has(type.dataType))
    add(`${path}.enumeration`, `an enumeration needs data_type XdString or XdToken (or a source type), not ${type.dataType}`);
  return type.dataType;
}
