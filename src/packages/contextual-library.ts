/** The contextual library: one published component for each contextual slot of a data model (the contract's
 * `contextual` references), each a restriction of the SDC4 reference-model type that slot takes in `DMType`.
 * Migration 0011 ships these rows; `catalog contextual install` restores any that are missing. */

export const CONTEXTUAL_SLOTS = ['audit', 'attestation', 'party', 'subject', 'provider', 'participation', 'protocol', 'workflow', 'acs'] as const;

export type ContextualSlot = (typeof CONTEXTUAL_SLOTS)[number];

export function isContextualSlot(value: unknown): value is ContextualSlot {
  return typeof value === 'string' && (CONTEXTUAL_SLOTS as readonly string[]).includes(value);
}

/** The one table of what each slot takes: the reference-model type of its place in sdc4.xsd's DMType (protocol is
 * an XdStringType, workflow and acs XdLinkType; party, which DMType has no place for, a PartyType), without `Type`,
 * as a component stores it (`components.data_type`). */
export const SLOT_COMPONENT_TYPE: Record<ContextualSlot, string> = {
  audit: 'Audit',
  attestation: 'Attestation',
  party: 'Party',
  subject: 'Party',
  provider: 'Party',
  participation: 'Participation',
  protocol: 'XdString',
  workflow: 'XdLink',
  acs: 'XdLink',
};

export interface ContextualEntry {
  slot: ContextualSlot;
  ctId: string;
  label: string;
  description: string;
}

export const CONTEXTUAL_LIBRARY: ContextualEntry[] = [
  {
    slot: 'audit',
    ctId: 'fdb90dwqnbjjojiy7tadmq44',
    label: 'Audit',
    description: 'The system that handled the record and when (SDC4 AuditType).',
  },
  {
    slot: 'attestation',
    ctId: 'rjvqpjzss8arwcr2i58059jr',
    label: 'Attestation',
    description: 'Whether the record is committed or pending attestation, and when it was committed (SDC4 AttestationType).',
  },
  {
    slot: 'party',
    ctId: 'cbca32elvi9jkkcyvtx1dr7l',
    label: 'Party',
    description: 'A named person, organisation or device taking part in the record (SDC4 PartyType).',
  },
  {
    slot: 'subject',
    ctId: 'l2o3zm01ujz6q982yg21c362',
    label: 'Subject',
    description: 'The party the record is about (SDC4 PartyType, the subject of a data model).',
  },
  {
    slot: 'provider',
    ctId: 'fd1515tfxz846amr3ka8ngfw',
    label: 'Provider',
    description: 'The party that provided the information in the record (SDC4 PartyType, a provider of a data model).',
  },
  {
    slot: 'participation',
    ctId: 'pbarxvx6bdjnzr5l3r2crusw',
    label: 'Participation',
    description: 'The function a party had in producing the record and when it started (SDC4 ParticipationType).',
  },
  {
    slot: 'protocol',
    ctId: 'wmva008s4sbazxjg98swuhcq',
    label: 'Protocol',
    description: 'The protocol or guideline the record was produced under (SDC4 XdStringType, the protocol of a data model).',
  },
  {
    slot: 'workflow',
    ctId: 'pddboj3j97s69b2po03sha7c',
    label: 'Workflow',
    description: 'A link to the workflow the record belongs to (SDC4 XdLinkType, the workflow of a data model).',
  },
  {
    slot: 'acs',
    ctId: 'byni6x05svyzj6mhd5ss73t9',
    label: 'Access control',
    description: 'A link to the access control system that governs the record (SDC4 XdLinkType, the acs of a data model).',
  },
];
