import { SLOT_COMPONENT_TYPE, type ContextualSlot } from './contextual-library';

/** Where each contextual slot goes in a model: its place in DMType's sequence and the component types it takes.
 * Pure data and text, so the package model can order and check contextual components without the generators. */

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

export function requireSlotType(c: ContextualComponent): void {
  if (SLOT_COMPONENT_TYPE[c.slot] !== c.componentType) {
    throw new Error(`The ${c.slot} slot takes a ${SLOT_COMPONENT_TYPE[c.slot]} component; ${c.ctId} is ${c.componentType}`);
  }
}

/** The element an instance writes for a used slot (null for `party`, which has no place in DMType). */
export function instanceElementName(c: ContextualComponent): string | null {
  const placement = PLACEMENT.find(([slot]) => slot === c.slot)![1];
  if (c.slot === 'party') return null;
  return placement.name ?? `sdc4:ms-${c.ctId}`;
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
