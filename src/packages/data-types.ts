import type { DataType } from '../domain/model-tree';
import type { PackageComponent } from './package-model';

/** What each SDC4 reference-model type (sdc4.xsd `<Name>Type`) contributes to a model component: the particles
 * of its restriction, in the order of the type's effective content model (XdAnyType's sequence, then
 * XdOrderedType's, XdQuantifiedType's, then its own), each with the example value an instance carries. */

export type Particle = ElementParticle | RefParticle | ChoiceParticle;

export interface ElementParticle {
  element: string;
  /** A QName, or null when `anonymousType` declares the type inline. */
  type: string | null;
  min: 0 | 1;
  max?: 'unbounded';
  nillable?: boolean;
  fixed?: string;
  defaultValue?: string;
  enumeration?: string[];
  /** A description of some enumerated values, written as each value's xsd:documentation. */
  enumerationDocs?: Record<string, string>;
  /** An inline complex type restricting `base` to these particles (type is then null). */
  restriction?: { base: string; particles: ElementParticle[] };
  /** What the example instance writes; absent: an optional element the example leaves out. */
  sample?: Sample;
}

/** Example content: a text value, or child elements (text not yet escaped; `fixed` ones are kept in a skeleton). */
type Sample = { text: string } | { children: Array<{ element: string; text: string; fixed?: boolean }> };

interface RefParticle {
  ref: string;
  min: 0 | 1;
  max?: 'unbounded';
}

interface ChoiceParticle {
  choice: ElementParticle[];
  min: 0 | 1;
  /** Index of the option the example instance uses. */
  pick: number;
}

export interface TypeInfo {
  family: 'any' | 'ordered' | 'quantified';
  /** The element that carries the value, and its XML Schema datatype (for SHACL, JSON-LD and documentation). */
  valueElement: string;
  valueDatatype: string;
}

export const TYPE_INFO: Record<DataType, TypeInfo> = {
  XdString: { family: 'any', valueElement: 'xdstring-value', valueDatatype: 'xsd:string' },
  XdToken: { family: 'any', valueElement: 'xdtoken-value', valueDatatype: 'xsd:token' },
  XdBoolean: { family: 'any', valueElement: 'true-value', valueDatatype: 'xsd:string' },
  XdLink: { family: 'any', valueElement: 'link', valueDatatype: 'xsd:anyURI' },
  XdFile: { family: 'any', valueElement: 'uri', valueDatatype: 'xsd:anyURI' },
  XdInterval: { family: 'any', valueElement: 'lower', valueDatatype: 'xsd:integer' },
  XdOrdinal: { family: 'ordered', valueElement: 'ordinal', valueDatatype: 'xsd:decimal' },
  XdTemporal: { family: 'ordered', valueElement: 'xdtemporal-date', valueDatatype: 'xsd:date' },
  XdCount: { family: 'quantified', valueElement: 'xdcount-value', valueDatatype: 'xsd:integer' },
  XdQuantity: { family: 'quantified', valueElement: 'xdquantity-value', valueDatatype: 'xsd:decimal' },
  XdFloat: { family: 'quantified', valueElement: 'xdfloat-value', valueDatatype: 'xsd:float' },
  XdDouble: { family: 'quantified', valueElement: 'xddouble-value', valueDatatype: 'xsd:double' },
  XdBooleanList: { family: 'any', valueElement: 'xdbooleanlist-value', valueDatatype: 'sdc4:BooleanListSimpleType' },
  XdStringList: { family: 'any', valueElement: 'xdstringlist-value', valueDatatype: 'sdc4:StringListSimpleType' },
  XdTokenList: { family: 'any', valueElement: 'xdtokenlist-value', valueDatatype: 'sdc4:TokenListSimpleType' },
  XdDecimalList: { family: 'quantified', valueElement: 'xddecimallist-value', valueDatatype: 'sdc4:DecimalListSimpleType' },
  XdDoubleList: { family: 'quantified', valueElement: 'xddoublelist-value', valueDatatype: 'sdc4:DoubleListSimpleType' },
  XdIntegerList: { family: 'quantified', valueElement: 'xdintegerlist-value', valueDatatype: 'sdc4:IntegerListSimpleType' },
  XdNonNegativeIntegerList: {
    family: 'quantified',
    valueElement: 'xdnonnegativeintegerlist-value',
    valueDatatype: 'sdc4:NonNegativeIntegerListSimpleType',
  },
  XdPositiveIntegerList: {
    family: 'quantified',
    valueElement: 'xdpositiveintegerlist-value',
    valueDatatype: 'sdc4:PositiveIntegerListSimpleType',
  },
};

/** Example values that are valid for each type; list values are whitespace-separated items. */
const SAMPLES: Partial<Record<DataType, string>> = {
  XdString: 'Example text',
  XdToken: 'EXAMPLE-CODE',
  XdCount: '42',
  XdQuantity: '12.5',
  XdFloat: '1.5',
  XdDouble: '2.5E0',
  XdBooleanList: 'true false true',
  XdStringList: 'alpha beta gamma',
  XdTokenList: 'A1 B2 C3',
  XdDecimalList: '1.5 2.25 3',
  XdDoubleList: '1.0E0 2.5E1',
  XdIntegerList: '-1 0 42',
  XdNonNegativeIntegerList: '0 1 2',
  XdPositiveIntegerList: '1 2 3',
};

export function el(element: string, type: string, min: 0 | 1, rest: Partial<ElementParticle> = {}): ElementParticle {
  return { element, type, min, ...rest };
}

function anyPrefix(label: string): Particle[] {
  return [
    el('label', 'xsd:string', 1, { fixed: label, sample: { text: label } }),
    el('act', 'xsd:string', 0),
    { ref: 'sdc4:ExceptionalValue', min: 0, max: 'unbounded' },
    el('vtb', 'xsd:dateTime', 0),
    el('vte', 'xsd:dateTime', 0, { nillable: true }),
    el('tr', 'xsd:dateTime', 0, { nillable: true }),
    el('modified', 'xsd:dateTime', 0, { nillable: true }),
    el('latitude', 'sdc4:lattype', 0, { nillable: true }),
    el('longitude', 'sdc4:lontype', 0, { nillable: true }),
  ];
}

const ORDERED: Particle[] = [{ ref: 'sdc4:ReferenceRange', min: 0, max: 'unbounded' }, el('normal-status', 'xsd:string', 0)];

const QUANTIFIED: Particle[] = [
  el('magnitude-status', 'sdc4:MagnitudeStatus', 0),
  el('accuracy_margin', 'xsd:decimal', 0),
  el('precision_digits', 'xsd:nonNegativeInteger', 0),
];

function unitsParticle(element: string, component: PackageComponent): ElementParticle[] {
  const units = component.units;
  if (!units) return [];
  const value = units.value ?? 'unit';
  return [
    el(element, `sdc4:mc-${units.ctId}`, 1, {
      sample: {
        children: [
          { element: 'label', text: units.label, fixed: true },
          { element: 'xdstring-value', text: value, fixed: units.value !== null },
        ],
      },
    }),
  ];
}

function valueParticle(type: DataType, xsdType: string): ElementParticle {
  return el(TYPE_INFO[type].valueElement, xsdType, 1, { sample: { text: SAMPLES[type] ?? '' } });
}

/** The value element of a component with enumerated values (drafts API `enums`), else the free one. */
function enumeratedValue(component: PackageComponent, xsdType: string): ElementParticle {
  const { dataType, enums, enumDescr } = component.node;
  if (!enums?.length) return valueParticle(dataType, xsdType);
  return el(TYPE_INFO[dataType].valueElement, xsdType, 1, {
    enumeration: enums,
    ...(enumDescr ? { enumerationDocs: enumDescr } : {}),
    sample: { text: enums[0] },
  });
}

/** An XdOrdinal with symbols: ordinals 1…n in the symbols' order. */
function ordinalParticles(component: PackageComponent): Particle[] {
  const { enums, enumDescr } = component.node;
  if (!enums?.length) {
    return [el('ordinal', 'xsd:decimal', 1, { sample: { text: '1' } }), el('symbol', 'xsd:string', 1, { sample: { text: 'first' } })];
  }
  return [
    el('ordinal', 'xsd:decimal', 1, { enumeration: enums.map((_, i) => String(i + 1)), sample: { text: '1' } }),
    el('symbol', 'xsd:string', 1, { enumeration: enums, ...(enumDescr ? { enumerationDocs: enumDescr } : {}), sample: { text: enums[0] } }),
  ];
}

/** The xdtemporal-* element of each part a temporal may allow (drafts API `allow_<part>`). */
const TEMPORAL_ELEMENTS: Record<string, string> = {
  date: 'xdtemporal-date',
  time: 'xdtemporal-time',
  datetime: 'xdtemporal-datetime',
  duration: 'xdtemporal-duration',
  year: 'xdtemporal-year',
  year_month: 'xdtemporal-year-month',
  month: 'xdtemporal-month',
  month_day: 'xdtemporal-month-day',
  day: 'xdtemporal-day',
};

function allowedTemporal(component: PackageComponent, choice: ElementParticle[]): ElementParticle[] {
  const parts = component.node.temporalParts;
  if (!parts?.length) return choice;
  const allowed = new Set(parts.map((part) => TEMPORAL_ELEMENTS[part]));
  return choice.filter((p) => allowed.has(p.element));
}

function intervalParticles(component: PackageComponent): Particle[] {
  const bounds = ['lower_included', 'upper_included', 'lower_bounded', 'upper_bounded'].map((name) =>
    el(name, 'xsd:boolean', 1, { sample: { text: 'true' } }),
  );
  const particles: Particle[] = [
    el('lower', 'sdc4:InvlType', 1, { sample: { children: [{ element: 'invl-int', text: '0' }] } }),
    el('upper', 'sdc4:InvlType', 1, { sample: { children: [{ element: 'invl-int', text: '100' }] } }),
    ...bounds,
  ];
  const units = component.node.units;
  if (units !== null) {
    particles.push({
      element: 'interval-units',
      type: null,
      min: 1,
      restriction: {
        base: 'sdc4:InvlUnits',
        particles: [el('units-name', 'xsd:string', 1, { fixed: units }), el('units-uri', 'xsd:anyURI', 1)],
      },
      sample: {
        children: [
          { element: 'units-name', text: units, fixed: true },
          { element: 'units-uri', text: 'https://ucum.org/ucum' },
        ],
      },
    });
  }
  return particles;
}

function ownParticles(component: PackageComponent, createdDate: string): Particle[] {
  const type = component.node.dataType;
  switch (type) {
    case 'XdString':
      return [enumeratedValue(component, 'xsd:string'), el('xdstring-language', 'xsd:language', 0)];
    case 'XdToken':
      return [enumeratedValue(component, 'xsd:token'), el('xdtoken-language', 'xsd:language', 0)];
    case 'XdBoolean':
      return [
        {
          choice: [
            el('true-value', 'xsd:string', 1, { enumeration: ['true'], sample: { text: 'true' } }),
            el('false-value', 'xsd:string', 1, { enumeration: ['false'], sample: { text: 'false' } }),
          ],
          min: 1,
          pick: 0,
        },
      ];
    case 'XdLink':
      return [
        el('link', 'xsd:anyURI', 1, { sample: { text: `https://example.org/resource/${component.node.ctId}` } }),
        el('relation', 'xsd:string', 1, { sample: { text: 'related to' } }),
        el('relation-uri', 'xsd:anyURI', 0),
      ];
    case 'XdFile':
      return [
        el('size', 'xsd:integer', 0),
        el('encoding', 'xsd:string', 0),
        el('xdfile-language', 'xsd:language', 0),
        el('formalism', 'xsd:string', 0),
        el('media-type', 'xsd:string', 0, { sample: { text: 'text/plain' } }),
        el('compression-type', 'xsd:string', 0),
        el('hash-result', 'xsd:string', 0),
        el('hash-function', 'xsd:string', 0),
        el('alt-txt', 'xsd:string', 0),
        {
          choice: [
            el('uri', 'xsd:anyURI', 1, { sample: { text: `https://example.org/files/${component.node.ctId}.txt` } }),
            el('media-content', 'xsd:base64Binary', 1, { sample: { text: 'RXhhbXBsZQ==' } }),
          ],
          min: 1,
          pick: 0,
        },
      ];
    case 'XdOrdinal':
      return ordinalParticles(component);
    case 'XdTemporal':
      return [
        {
          choice: allowedTemporal(component, [
            el('xdtemporal-date', 'xsd:date', 1, { sample: { text: createdDate } }),
            el('xdtemporal-time', 'xsd:time', 1, { sample: { text: '12:00:00' } }),
            el('xdtemporal-datetime', 'xsd:dateTime', 1, { sample: { text: `${createdDate}T12:00:00Z` } }),
            el('xdtemporal-duration', 'xsd:duration', 1, { sample: { text: 'P1D' } }),
            el('xdtemporal-year', 'xsd:gYear', 1, { sample: { text: createdDate.slice(0, 4) } }),
            el('xdtemporal-year-month', 'xsd:gYearMonth', 1, { sample: { text: createdDate.slice(0, 7) } }),
            el('xdtemporal-month', 'xsd:gMonth', 1, { sample: { text: `--${createdDate.slice(5, 7)}` } }),
            el('xdtemporal-month-day', 'xsd:gMonthDay', 1, { sample: { text: `--${createdDate.slice(5, 10)}` } }),
            el('xdtemporal-day', 'xsd:gDay', 1, { sample: { text: `---${createdDate.slice(8, 10)}` } }),
          ]),
          min: 1,
          pick: 0,
        },
      ];
    case 'XdInterval':
      return intervalParticles(component);
    case 'XdCount':
      return [valueParticle(type, 'xsd:integer'), ...unitsParticle('xdcount-units', component)];
    case 'XdQuantity':
      return [valueParticle(type, 'xsd:decimal'), ...unitsParticle('xdquantity-units', component)];
    case 'XdFloat':
      return [valueParticle(type, 'xsd:float'), ...unitsParticle('xdfloat-units', component)];
    case 'XdDouble':
      return [valueParticle(type, 'xsd:double'), ...unitsParticle('xddouble-units', component)];
    case 'XdBooleanList':
    case 'XdStringList':
    case 'XdTokenList':
      return [valueParticle(type, TYPE_INFO[type].valueDatatype)];
    case 'XdDecimalList':
    case 'XdDoubleList':
    case 'XdIntegerList':
    case 'XdNonNegativeIntegerList':
    case 'XdPositiveIntegerList':
      return [valueParticle(type, TYPE_INFO[type].valueDatatype), ...unitsParticle(`${type.toLowerCase()}-units`, component)];
  }
}

/** The full sequence of a component's restriction of `sdc4:<Type>Type`. */
export function componentParticles(component: PackageComponent, createdDate: string): Particle[] {
  const family = TYPE_INFO[component.node.dataType].family;
  return [
    ...anyPrefix(component.node.label),
    ...(family === 'any' ? [] : ORDERED),
    ...(family === 'quantified' ? QUANTIFIED : []),
    ...ownParticles(component, createdDate),
  ];
}

/** The sequence of a units component (a restriction of XdStringType), value fixed when the model gives units. */
export function unitsParticles(label: string, value: string | null): Particle[] {
  return [
    ...anyPrefix(label),
    el('xdstring-value', 'xsd:string', 1, {
      ...(value === null ? {} : { fixed: value }),
      sample: { text: value ?? 'unit' },
    }),
  ];
}
