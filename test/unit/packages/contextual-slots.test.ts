import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { CONTEXTUAL_SLOTS, SLOT_COMPONENT_TYPE } from '../../../src/packages/contextual-library';
import { requireSlotType } from '../../../src/packages/contextual-slots';
import { parseComponentQuery } from '../../../src/parsers/catalog.parser';

/** The slot table (contextual-library.ts) against the SDC4 reference model it restates. */
const XSD = new DOMParser().parseFromString(
  readFileSync(path.resolve(__dirname, '../../../../shared/fixtures/sdc4/reference/sdc4.xsd'), 'utf8'),
  'text/xml',
);
const XS = 'http://www.w3.org/2001/XMLSchema';
const elements = Array.from(XSD.getElementsByTagNameNS(XS, 'element'));
const topLevel = (name: string) =>
  elements.find((e) => e.getAttribute('name') === name && (e.parentNode as { localName?: string }).localName === 'schema');

/** The type of a slot's place in DMType's sequence: a named element's type, or a referenced head's type. */
function typeInDmType(slot: string): string | null {
  const dmType = Array.from(XSD.getElementsByTagNameNS(XS, 'complexType')).find((t) => t.getAttribute('name') === 'DMType')!;
  for (const particle of Array.from(dmType.getElementsByTagNameNS(XS, 'element'))) {
    if (particle.getAttribute('name') === slot) return particle.getAttribute('type');
    const ref = particle.getAttribute('ref');
    if (ref && ref.toLowerCase() === `sdc4:${slot}`) return topLevel(ref.slice('sdc4:'.length))!.getAttribute('type');
  }
  return null;
}

describe('the contextual slot table', () => {
  it.each(CONTEXTUAL_SLOTS.filter((slot) => slot !== 'party'))("gives %s the type of its place in sdc4.xsd's DMType", (slot) => {
    expect(`sdc4:${SLOT_COMPONENT_TYPE[slot]}Type`).toBe(typeInDmType(slot));
  });

  it('gives party, which DMType has no place for, the type of the Party head', () => {
    expect(typeInDmType('party')).toBeNull();
    expect(`sdc4:${SLOT_COMPONENT_TYPE.party}Type`).toBe(topLevel('Party')!.getAttribute('type'));
  });

  it('is what the package model requires of a contextual component', () => {
    const component = { slot: 'protocol' as const, ctId: 'p1', label: 'Protocol', description: null };
    expect(() => requireSlotType({ ...component, componentType: 'XdString' })).not.toThrow();
    expect(() => requireSlotType({ ...component, componentType: 'XdLink' })).toThrow('The protocol slot takes a XdString component; p1 is XdLink');
  });

  it('is what the catalog type filter matches: by type where only contextual components have it, else by slot alone', () => {
    expect(parseComponentQuery({ type: 'subject' }).type).toEqual({ dataTypes: ['party', 'partytype'], slot: 'subject' });
    expect(parseComponentQuery({ type: 'Protocol' }).type).toEqual({ dataTypes: [], slot: 'protocol' });
    expect(parseComponentQuery({ type: 'workflow' }).type).toEqual({ dataTypes: [], slot: 'workflow' });
  });
});
