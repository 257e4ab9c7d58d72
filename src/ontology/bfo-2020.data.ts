/** BFO 2020 (ISO/IEC 21838-2:2021) class hierarchy and disjointness axioms, as published by the standard.
 * Licence of the standard: CC BY 4.0. This data generates ontologies/bfo-2020.owl. */

/** BFO id → [parent id or null for the root, label]. */
export const BFO_CLASSES: Record<string, [parent: string | null, label: string]> = {
  BFO_0000001: [null, 'entity'],
  BFO_0000002: ['BFO_0000001', 'continuant'],
  BFO_0000003: ['BFO_0000001', 'occurrent'],
  BFO_0000004: ['BFO_0000002', 'independent continuant'],
  BFO_0000020: ['BFO_0000002', 'specifically dependent continuant'],
  BFO_0000031: ['BFO_0000002', 'generically dependent continuant'],
  BFO_0000040: ['BFO_0000004', 'material entity'],
  BFO_0000141: ['BFO_0000004', 'immaterial entity'],
  BFO_0000024: ['BFO_0000040', 'fiat object part'],
  BFO_0000027: ['BFO_0000040', 'object aggregate'],
  BFO_0000030: ['BFO_0000040', 'object'],
  BFO_0000006: ['BFO_0000141', 'spatial region'],
  BFO_0000029: ['BFO_0000141', 'site'],
  BFO_0000140: ['BFO_0000141', 'continuant fiat boundary'],
  BFO_0000009: ['BFO_0000006', 'two-dimensional spatial region'],
  BFO_0000018: ['BFO_0000006', 'zero-dimensional spatial region'],
  BFO_0000026: ['BFO_0000006', 'one-dimensional spatial region'],
  BFO_0000028: ['BFO_0000006', 'three-dimensional spatial region'],
  BFO_0000142: ['BFO_0000140', 'fiat line'],
  BFO_0000146: ['BFO_0000140', 'fiat surface'],
  BFO_0000147: ['BFO_0000140', 'fiat point'],
  BFO_0000017: ['BFO_0000020', 'realizable entity'],
  BFO_0000019: ['BFO_0000020', 'quality'],
  BFO_0000145: ['BFO_0000019', 'relational quality'],
  BFO_0000016: ['BFO_0000017', 'disposition'],
  BFO_0000023: ['BFO_0000017', 'role'],
  BFO_0000034: ['BFO_0000016', 'function'],
  BFO_0000008: ['BFO_0000003', 'temporal region'],
  BFO_0000011: ['BFO_0000003', 'spatiotemporal region'],
  BFO_0000015: ['BFO_0000003', 'process'],
  BFO_0000035: ['BFO_0000003', 'process boundary'],
  BFO_0000182: ['BFO_0000015', 'history'],
  BFO_0000038: ['BFO_0000008', 'one-dimensional temporal region'],
  BFO_0000148: ['BFO_0000008', 'zero-dimensional temporal region'],
  BFO_0000202: ['BFO_0000038', 'temporal interval'],
  BFO_0000203: ['BFO_0000148', 'temporal instant'],
};

/** Pairwise disjointness (owl:disjointWith). */
export const BFO_DISJOINT_PAIRS: Array<[string, string]> = [
  ['BFO_0000002', 'BFO_0000003'],
  ['BFO_0000040', 'BFO_0000141'],
  ['BFO_0000017', 'BFO_0000019'],
  ['BFO_0000016', 'BFO_0000023'],
  ['BFO_0000038', 'BFO_0000148'],
];

/** Mutually disjoint groups (owl:AllDisjointClasses). */
export const BFO_DISJOINT_GROUPS: string[][] = [
  ['BFO_0000004', 'BFO_0000020', 'BFO_0000031'],
  ['BFO_0000006', 'BFO_0000029', 'BFO_0000140'],
  ['BFO_0000008', 'BFO_0000011', 'BFO_0000015', 'BFO_0000035'],
  ['BFO_0000009', 'BFO_0000018', 'BFO_0000026', 'BFO_0000028'],
  ['BFO_0000142', 'BFO_0000146', 'BFO_0000147'],
];
