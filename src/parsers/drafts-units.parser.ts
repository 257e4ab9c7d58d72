import { asBody, booleanField, has, MAX_LABEL, parseEnums, projectOf, requiredText } from './drafts-fields';
import { parseEntryFields, type EntryFields } from './drafts.parser';

/** Units drafts (`/dmgen/units/`), pure: what SDC4 calls the Units of a quantified value — a label (the unit, e.g.
 * `kg`), a description, alternative symbols (`enums`) and semantic links. A 400 names the field. */

export interface UnitsFields extends EntryFields {
  /** Alternative symbols of the unit, in order. */
  enums?: string[];
}

export interface NewUnitsDraft extends UnitsFields {
  label: string;
  projectCtId: string | null;
}

/** The editable fields a body carries (a PATCH sends any of them); `enums` newline-joined or a list. */
export function parseUnitsFields(raw: unknown): UnitsFields {
  const body = asBody(raw);
  const fields: UnitsFields = parseEntryFields(body);
  if (has(body, 'enums')) fields.enums = body.enums === null ? [] : parseEnums(body.enums);
  return fields;
}

/** `public` is read as the component mints read it: checked, never a way around publishing. */
export function parseNewUnits(raw: unknown): NewUnitsDraft {
  const body = asBody(raw);
  if (has(body, 'public') && body.public !== null) booleanField(body.public, 'public');
  return { ...parseUnitsFields(body), label: requiredText(body.label, 'label', MAX_LABEL), projectCtId: projectOf(body) };
}
