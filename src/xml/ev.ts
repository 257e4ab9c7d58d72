import { childElements, ownText, type XDocument, type XElement } from './dom';
import { locateError } from './node-path';
import { parseXmlDom, positionOf } from './safe-parse';
import type { CompiledSchema } from './schema-compiler';
import { qkey, type SchemaModel } from './schema-model';
import { COMPONENT_HEADER, EXCEPTIONAL_VALUE_TYPE, SDC4_NS, VALUE_ELEMENT, XD_ANY_TYPE } from './sdc4';
import { XmlValidationError, type XmlError } from './xml-errors';

export type ExceptionalValue = 'EV_NULL' | 'EV_UNKNOWN' | 'EV_NOT_RECORDED' | 'EV_MASKED' | 'EV_NOT_APPLICABLE';

export interface EvRule {
  placeholders: string[] | RegExp;
  ev: ExceptionalValue;
  /** The SDC4 ExceptionalValue element (in the sdc4 namespace) that records it. */
  element: 'NI' | 'UNK' | 'NAV' | 'MSK' | 'NA';
  /** The fixed `ev-name` of that element in sdc4.xsd. */
  evName: string;
}

/**
 * Placeholder → exceptional value. A value matches after trimming, collapsing inner whitespace and lower-casing.
 *
 * | Placeholders                                   | EV                | SDC4 element | ev-name          |
 * |------------------------------------------------|-------------------|--------------|------------------|
 * | N/A, NA, n.a., n.a, null, nil, none            | EV_NULL           | sdc4:NI      | No Information   |
 * | a run of one or more dashes (`-`, `--`, …)     | EV_NULL           | sdc4:NI      | No Information   |
 * | empty or blank, in a numeric or temporal value | EV_NULL           | sdc4:NI      | No Information   |
 * | unknown, unk, ?                                | EV_UNKNOWN        | sdc4:UNK     | Unknown          |
 * | not recorded, not available                    | EV_NOT_RECORDED   | sdc4:NAV     | Not Available    |
 * | masked, redacted                               | EV_MASKED         | sdc4:MSK     | Masked           |
 * | a run of three or more asterisks (`***`, …)    | EV_MASKED         | sdc4:MSK     | Masked           |
 * | not applicable                                 | EV_NOT_APPLICABLE | sdc4:NA      | Not Applicable   |
 *
 * N/A is EV_NULL as the contract's birth-date example says, so the bare NA abbreviation is EV_NULL too. A dash, and
 * nothing at all where a number or a date is required, say no more than "missing, omitted, incomplete": sdc4.xsd's
 * NI. An empty string value is a valid string, so blank is a placeholder only for numeric and temporal types.
 */
export const EV_TABLE: ReadonlyArray<EvRule> = [
  { placeholders: ['n/a', 'na', 'n.a.', 'n.a', 'null', 'nil', 'none'], ev: 'EV_NULL', element: 'NI', evName: 'No Information' },
  { placeholders: /^-+$/, ev: 'EV_NULL', element: 'NI', evName: 'No Information' },
  { placeholders: ['unknown', 'unk', '?'], ev: 'EV_UNKNOWN', element: 'UNK', evName: 'Unknown' },
  { placeholders: ['not recorded', 'not available'], ev: 'EV_NOT_RECORDED', element: 'NAV', evName: 'Not Available' },
  { placeholders: ['masked', 'redacted'], ev: 'EV_MASKED', element: 'MSK', evName: 'Masked' },
  { placeholders: /^\*{3,}$/, ev: 'EV_MASKED', element: 'MSK', evName: 'Masked' },
  { placeholders: ['not applicable'], ev: 'EV_NOT_APPLICABLE', element: 'NA', evName: 'Not Applicable' },
];

/** The rule for an empty or blank value where the type needs a number or a date (`builtin` is the XSD builtin the
 * value's type restricts, e.g. `integer`, `date`; see SchemaModel.builtinOf). */
const BLANK_RULE: EvRule = { placeholders: /^$/, ev: 'EV_NULL', element: 'NI', evName: 'No Information' };

const NUMERIC_BUILTINS =
  'decimal integer long int short byte nonNegativeInteger positiveInteger nonPositiveInteger negativeInteger unsignedLong unsignedInt unsignedShort unsignedByte float double';
const TEMPORAL_BUILTINS = 'date time dateTime dateTimeStamp duration dayTimeDuration yearMonthDuration gYear gYearMonth gMonth gMonthDay gDay';
const BLANK_IS_PLACEHOLDER = new Set(`${NUMERIC_BUILTINS} ${TEMPORAL_BUILTINS}`.split(' '));

/**
 * The placeholder rule a value's text matches, or null. `builtin` (the XSD builtin of the value's type, when known)
 * decides whether an empty or blank value is a placeholder: it is for numeric and temporal types only.
 */
export function placeholderRule(value: string, builtin: string | null = null): EvRule | null {
  const normalized = value.trim().replace(/\s+/g, ' ').toLowerCase();
  if (normalized === '') return builtin !== null && BLANK_IS_PLACEHOLDER.has(builtin) ? BLANK_RULE : null;
  return EV_TABLE.find((r) => (Array.isArray(r.placeholders) ? r.placeholders.includes(normalized) : r.placeholders.test(normalized))) ?? null;
}

export interface EvCorrection {
  line: number;
  ev: ExceptionalValue;
  /** e.g. `sdc4:NI`. */
  element: string;
  original: string;
}

export interface CorrectionResult {
  status: 'valid' | 'valid_with_ev';
  correctedXml: string;
  /** The tree of `correctedXml` when correction had to parse it (null for an instance valid as sent). */
  correctedDocument: XDocument | null;
  corrections: EvCorrection[];
  /** Errors left on EV-tagged values (SDC4's quarantine-and-tag): reported, not fatal. */
  remainingErrors: XmlError[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Validates and, when the only errors are invalid values of data elements whose text is a placeholder, tags
 * each such component with its ExceptionalValue (inserted after `label`/`act`), removes the placeholder where
 * the schema lets the value be absent and keeps it beside the EV where the value is required, then validates
 * again: every error left must be excused by an EV (see `excusedByEv`, the one statement of that rule). Edits keep
 * every line where it was, so line numbers of the original and the corrected text agree. Throws XmlValidationError
 * for anything else.
 */
export function validateWithCorrection(xml: string, schema: CompiledSchema): CorrectionResult {
  const errors = schema.validateLocated(xml);
  if (errors.length === 0) return { status: 'valid', correctedXml: xml, correctedDocument: null, corrections: [], remainingErrors: [] };
  const document = parseXmlDom(xml);
  const components = new Map<XElement, { rule: EvRule; values: Array<{ element: XElement; line: number }> }>();
  for (const error of errors) {
    const element = locateError(document, error);
    if (excusedByEv(element, error, schema.model)) continue;
    const rule = element && isValueError(error) ? correctableRule(element, schema.model) : null;
    if (!element || !rule) throw new XmlValidationError(errors.map(plain));
    const component = element.parentElement as XElement;
    const entry = components.get(component) ?? { rule, values: [] };
    if (!entry.values.some((v) => v.element === element)) entry.values.push({ element, line: error.line });
    components.set(component, entry);
  }
  if (components.size === 0) {
    return { status: 'valid_with_ev', correctedXml: xml, correctedDocument: document, corrections: [], remainingErrors: errors.map(plain) };
  }

  const edits: Edit[] = [];
  const corrections: EvCorrection[] = [];
  for (const [component, { rule, values }] of components) {
    edits.push(evInsertion(component, rule));
    const componentType = schema.model.typeOfPath(component);
    for (const { element, line } of values) {
      const declaration = componentType && schema.model.childDeclaration(componentType, qkey(element.namespaceURI, element.localName));
      if (declaration && declaration.minOccurs === 0) edits.push(removal(xml, element));
      corrections.push({ line, ev: rule.ev, element: `sdc4:${rule.element}`, original: ownText(element) });
    }
  }
  const correctedXml = applyEdits(xml, edits);
  const remaining = schema.validateLocated(correctedXml);
  const correctedDocument = parseXmlDom(correctedXml);
  const untagged = remaining.filter((e) => !excusedByEv(locateError(correctedDocument, e), e, schema.model));
  if (untagged.length > 0) throw new XmlValidationError(untagged.map(plain));
  corrections.sort((a, b) => a.line - b.line);
  return { status: 'valid_with_ev', correctedXml, correctedDocument, corrections, remainingErrors: remaining.map(plain) };
}

/** The placeholder rule when `element` is the value element of an SDC4 component (never its label, act or
 * metadata). */
function correctableRule(element: XElement, model: SchemaModel): EvRule | null {
  if (!isValueElement(element, model)) return null;
  const componentType = model.typeOfPath(element.parentElement as XElement);
  const declaration = componentType ? model.childDeclaration(componentType, qkey(null, element.localName)) : null;
  return placeholderRule(ownText(element), model.builtinOf(declaration?.typeKey ?? null));
}

/**
 * The EV rule, in one place: an ExceptionalValue on a component excuses only the errors about that component's
 * value (the element the EV stands for) and only errors about its text (a datatype or facet error). Every other
 * error in the component (an unknown or missing child, a wrong fixed label or units, an EV out of place, a second
 * value) stays structural, EV or not.
 */
function excusedByEv(element: XElement | null, error: XmlError, model: SchemaModel): boolean {
  if (!element || !isValueError(error) || !isValueElement(element, model)) return false;
  return childElements(element.parentElement as XElement).some((sibling) => isExceptionalValue(sibling, model));
}

/** The value element of an SDC4 data component: a simple, unqualified child named as sdc4.xsd names values. */
function isValueElement(element: XElement, model: SchemaModel): boolean {
  const component = element.parentElement;
  if (!component || element.namespaceURI !== null || !VALUE_ELEMENT.test(element.localName)) return false;
  if (childElements(element).length > 0) return false;
  return model.derivesFrom(model.typeOfPath(component), XD_ANY_TYPE);
}

/** libxml2's errors about an element's text against its simple type (lexical form, facets), as opposed to its
 * place or its children: `'x' is not a valid value of …` and `[facet '…'] …`. A fixed-value mismatch is not one. */
const VALUE_ERROR = /^Element '[^']*': (?:'[\s\S]*' is not a valid value of |\[facet '[A-Za-z]+'\] )/;
function isValueError(error: XmlError): boolean {
  return VALUE_ERROR.test(error.message);
}

function isExceptionalValue(element: XElement, model: SchemaModel): boolean {
  const declaration = model.elements.get(qkey(element.namespaceURI, element.localName));
  return declaration !== undefined && model.derivesFrom(declaration.typeKey, EXCEPTIONAL_VALUE_TYPE);
}

/** The EV element, written on the line of the component's label so no later line moves. */
function evInsertion(component: XElement, rule: EvRule): Edit {
  const header = childElements(component).filter((c) => c.namespaceURI === null && (COMPONENT_HEADER as readonly string[]).includes(c.localName));
  const at = header.length > 0 ? positionOf(header[header.length - 1]).end : positionOf(component).startTagEnd;
  const bound = component.lookupPrefix(SDC4_NS);
  const prefix = bound !== null && component.lookupNamespaceURI(bound) === SDC4_NS ? bound : null;
  const defaultIsSdc4 = component.lookupNamespaceURI(null) === SDC4_NS;
  const tag = prefix ? `${prefix}:${rule.element}` : defaultIsSdc4 ? rule.element : `sdc4ev:${rule.element}`;
  const declaration = prefix || defaultIsSdc4 ? '' : ` xmlns:sdc4ev="${SDC4_NS}"`;
  const defaultNamespace = defaultIsSdc4 ? SDC4_NS : component.lookupNamespaceURI(null);
  const evName = `<ev-name${defaultNamespace ? ' xmlns=""' : ''}>${rule.evName}</ev-name>`;
  return { start: at, end: at, text: `<${tag}${declaration}>${evName}</${tag}>` };
}

/** Removes an element, keeping its line breaks so later lines keep their numbers. */
function removal(xml: string, element: XElement): Edit {
  const { start, end } = positionOf(element);
  return { start, end, text: '\n'.repeat(xml.slice(start, end).split('\n').length - 1) };
}

function applyEdits(text: string, edits: Edit[]): string {
  const ordered = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  for (const edit of ordered) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

function plain(error: XmlError): XmlError {
  return { line: error.line, message: error.message };
}
