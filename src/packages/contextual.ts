import { componentParticles, el, type Particle } from './data-types';
import type { ContextualSlot } from './contextual-library';
import { SDC4_NS, type PackageComponent } from './package-model';

/** How a model's contextual components enter its schema and instances: each is a restriction of the
 * reference-model type its slot takes in `DMType`, placed at that slot's position of the model's sequence (a local
 * element for `subject`, `provider`, `protocol`, `workflow`, `acs`, `attestation`; a member of the `sdc4:Audit` or
 * `sdc4:Participation` substitution group for those two; `party`, which DMType has no place for, is declared as a
 * member of `sdc4:Party`). */

/** A contextual component as the model references it (from the catalog row its slot names). */
export interface ContextualComponent {
  slot: ContextualSlot;
  ctId: string;
  label: string;
  description: string | null;
  /** The stored component type: Party, Audit, Attestation, Participation or an Xd type. */
  componentType: string;
}

interface Placement {
  /** The local element name in DMType, or the substitution-group head the model's `ms-<ct_id>` joins. */
  name?: string;
  group?: string;
  max?: 'unbounded';
  /** What DMType declares here when the slot is unused (the studio writes these lines in every model). */
  unused?: string;
}

/** In DMType's sequence order (after the root item). */
const PLACEMENT: Array<[ContextualSlot, Placement]> = [
  ['subject', { name: 'subject', unused: '<xsd:element maxOccurs="1" minOccurs="0" name="subject" type="sdc4:PartyType"/>' }],
  [
    'provider',
    { name: 'provider', max: 'unbounded', unused: '<xsd:element maxOccurs="unbounded" minOccurs="0" name="provider" type="sdc4:PartyType"/>' },
  ],
  [
    'participation',
    { group: 'sdc4:Participation', max: 'unbounded', unused: '<xsd:element maxOccurs="unbounded" minOccurs="0" ref="sdc4:Participation"/>' },
  ],
  ['protocol', { name: 'protocol', unused: '<xsd:element maxOccurs="1" minOccurs="0" name="protocol" type="sdc4:XdStringType"/>' }],
  ['workflow', { name: 'workflow', unused: '<xsd:element maxOccurs="1" minOccurs="0" name="workflow" type="sdc4:XdLinkType"/>' }],
  ['acs', { name: 'acs', unused: '<xsd:element maxOccurs="1" minOccurs="0" name="acs" type="sdc4:XdLinkType"/>' }],
  ['audit', { group: 'sdc4:Audit', max: 'unbounded' }],
  ['attestation', { name: 'attestation' }],
  ['party', { group: 'sdc4:Party' }],
];

/** The component types each slot accepts. */
const SLOT_TYPES: Record<ContextualSlot, string[]> = {
  audit: ['Audit'],
  attestation: ['Attestation'],
  party: ['Party'],
  subject: ['Party'],
  provider: ['Party'],
  participation: ['Participation'],
  protocol: ['XdString'],
  workflow: ['XdLink'],
  acs: ['XdLink'],
};

export function requireSlotType(c: ContextualComponent): void {
  if (!SLOT_TYPES[c.slot].includes(c.componentType)) {
    throw new Error(`The ${c.slot} slot takes a ${SLOT_TYPES[c.slot].join(' or ')} component; ${c.ctId} is ${c.componentType}`);
  }
}

/** The reference-model type a contextual component restricts. */
export const rmTypeOf = (c: ContextualComponent) => `${c.componentType}Type`;

const xdString = (element: string, label: string, value: string) =>
  el(element, 'sdc4:XdStringType', 1, {
    sample: {
      children: [
        { element: 'label', text: label, fixed: true },
        { element: 'xdstring-value', text: value },
      ],
    },
  });

/** The sequence of a contextual component's restriction, each element with the example value an instance carries. */
export function contextualParticles(c: ContextualComponent, createdIso: string, createdDate: string): Particle[] {
  const label = el('label', 'xsd:string', 1, { fixed: c.label, sample: { text: c.label } });
  switch (c.componentType) {
    case 'Party':
      return [label, el('party-name', 'xsd:string', 1, { sample: { text: 'Example party' } })];
    case 'Audit':
      return [label, xdString('system-id', 'System', 'example-system'), el('timestamp', 'xsd:dateTime', 1, { sample: { text: createdIso } })];
    case 'Attestation':
      return [
        label,
        el('committed', 'xsd:dateTime', 1, { sample: { text: createdIso } }),
        el('pending', 'xsd:boolean', 1, { sample: { text: 'false' } }),
      ];
    case 'Participation':
      return [label, xdString('function', 'Function', 'observer'), el('start', 'xsd:dateTime', 1, { sample: { text: createdIso } })];
    default:
      return componentParticles(asComponent(c), createdDate);
  }
}

/** An Xd contextual component (protocol, workflow, acs) is generated like any component of its type. */
export function asComponent(c: ContextualComponent): PackageComponent {
  const dataType = c.componentType === 'XdLink' ? 'XdLink' : 'XdString';
  return {
    node: { kind: 'component', ctId: c.ctId, label: c.label, dataType, description: c.description, units: null },
    adapterCtId: '',
    units: null,
  };
}

/** The value positions a skeleton turns into placeholders, as element paths under the contextual element. */
export function contextualValuePaths(c: ContextualComponent): Array<{ path: string[]; datatype: string }> {
  switch (c.componentType) {
    case 'Party':
      return [{ path: ['party-name'], datatype: 'xsd:string' }];
    case 'Audit':
      return [
        { path: ['system-id', 'xdstring-value'], datatype: 'xsd:string' },
        { path: ['timestamp'], datatype: 'xsd:dateTime' },
      ];
    case 'Attestation':
      return [
        { path: ['committed'], datatype: 'xsd:dateTime' },
        { path: ['pending'], datatype: 'xsd:boolean' },
      ];
    case 'Participation':
      return [
        { path: ['function', 'xdstring-value'], datatype: 'xsd:string' },
        { path: ['start'], datatype: 'xsd:dateTime' },
      ];
    case 'XdLink':
      return [{ path: ['link'], datatype: 'xsd:anyURI' }];
    default:
      return [{ path: ['xdstring-value'], datatype: 'xsd:string' }];
  }
}

/** The element an instance writes for a used slot (null for `party`, which has no place in DMType). */
export function instanceElementName(c: ContextualComponent): string | null {
  const placement = PLACEMENT.find(([slot]) => slot === c.slot)![1];
  if (c.slot === 'party') return null;
  return placement.name ?? `sdc4:ms-${c.ctId}`;
}

/** The element of a used slot as a skeleton finds it (unqualified local element, or the model's `sdc4:ms-<ct_id>`). */
export function contextualElement(c: ContextualComponent): { localName: string; namespace: string | null } | null {
  const name = instanceElementName(c);
  if (!name) return null;
  return name.startsWith('sdc4:') ? { localName: name.slice('sdc4:'.length), namespace: SDC4_NS } : { localName: name, namespace: null };
}

/** The model's contextual components in DMType order. */
export function inSchemaOrder(contextual: ContextualComponent[]): ContextualComponent[] {
  return PLACEMENT.flatMap(([slot]) => contextual.filter((c) => c.slot === slot));
}

/** DMType's particles after the root item: each used slot at its position, the studio's defaults elsewhere. */
export function dmContextualLines(contextual: ContextualComponent[]): string[] {
  return PLACEMENT.flatMap(([slot, p]) => {
    const used = contextual.find((c) => c.slot === slot);
    if (!used) return p.unused ? [p.unused] : [];
    if (slot === 'party') return [];
    const occurs = `maxOccurs="${p.max ?? 1}" minOccurs="0"`;
    return p.name
      ? [`<xsd:element ${occurs} name="${p.name}" type="sdc4:mc-${used.ctId}"/>`]
      : [`<xsd:element ${occurs} ref="sdc4:ms-${used.ctId}"/>`];
  });
}

/** The global `ms-<ct_id>` declarations of the slots placed through a substitution group. */
export function contextualDeclarationLines(contextual: ContextualComponent[]): string[] {
  return PLACEMENT.flatMap(([slot, p]) => {
    const used = contextual.find((c) => c.slot === slot);
    if (!used || !p.group) return [];
    return [`<xsd:element name="ms-${used.ctId}" substitutionGroup="${p.group}" type="sdc4:mc-${used.ctId}"/>`];
  });
}
