import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decideGovernance, instanceGovernance, modelWorkflow } from '../../../src/vsl';
import { FIXTURES } from '../xml/fixtures';

const GOV = path.join(FIXTURES, 'vsl/sdcgovernance/fixtures');
const fixture = (name: string) => readFileSync(path.join(GOV, name), 'utf8');

/** A model XSD with one workflow XdOrdinal in either symbol form, bound to SCXML as vsl.md §4.1 asks of this
 * gateway's models (their DM `workflow` slot is an XdLink), plus an answer scale that is not the workflow. */
function modelXsd(form: 'symbol-enumeration' | 'ordinal-documentation'): string {
  const states = ['draft', 'review', 'approved', 'published'];
  const ordinal = states
    .map((s, i) =>
      form === 'ordinal-documentation'
        ? `<xsd:enumeration value="${i}"><xsd:annotation><xsd:documentation>${s}</xsd:documentation></xsd:annotation></xsd:enumeration>`
        : `<xsd:enumeration value="${i + 1}"/>`,
    )
    .join('');
  const symbol = form === 'symbol-enumeration' ? states.map((s) => `<xsd:enumeration value="${s}"/>`).join('') : '';
  return `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:sdc4="https://semanticdatacharter.com/ns/sdc4/"
    xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#" targetNamespace="https://semanticdatacharter.com/ns/sdc4/">
  <xsd:complexType name="mc-wf"><xsd:annotation><xsd:appinfo><rdf:Description rdf:about="sdc4:mc-wf"><rdfs:label>Document states</rdfs:label>
    <rdfs:isDefinedBy rdf:resource="http://www.w3.org/2005/07/scxml"/></rdf:Description></xsd:appinfo></xsd:annotation>
    <xsd:complexContent><xsd:restriction base="sdc4:XdOrdinalType"><xsd:sequence>
      <xsd:element name="ordinal"><xsd:simpleType><xsd:restriction base="xsd:decimal">${ordinal}</xsd:restriction></xsd:simpleType></xsd:element>
      <xsd:element name="symbol"><xsd:simpleType><xsd:restriction base="xsd:string">${symbol}</xsd:restriction></xsd:simpleType></xsd:element>
    </xsd:sequence></xsd:restriction></xsd:complexContent></xsd:complexType>
  <xsd:complexType name="mc-scale"><xsd:complexContent><xsd:restriction base="sdc4:XdOrdinalType"><xsd:sequence>
      <xsd:element name="ordinal"><xsd:simpleType><xsd:restriction base="xsd:decimal"><xsd:enumeration value="1"/><xsd:enumeration value="2"/></xsd:restriction></xsd:simpleType></xsd:element>
      <xsd:element name="symbol"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value="low"/><xsd:enumeration value="high"/></xsd:restriction></xsd:simpleType></xsd:element>
  </xsd:sequence></xsd:restriction></xsd:complexContent></xsd:complexType>
</xsd:schema>`;
}

const at = (state: string) => ({ currentState: state, paths: [] });

describe('workflow governance from the model', () => {
  for (const form of ['symbol-enumeration', 'ordinal-documentation'] as const) {
    it(`reads the SCXML-bound XdOrdinal's states in the ${form} form, and not an answer scale`, () => {
      const paths = modelWorkflow(modelXsd(form));
      expect(paths.map((p) => [p.path, p.label, p.states.map((s) => s.symbol)])).toEqual([
        ['mc-wf', 'Document states', ['draft', 'review', 'approved', 'published']],
      ]);
    });
  }

  it('permits the next state, denies a skip and a reversal, refuses an unknown state', () => {
    const paths = modelWorkflow(modelXsd('symbol-enumeration'));
    expect(decideGovernance(paths, at('review'), 'approved')).toMatchObject({ kind: 'decided', decision: 'PERMIT' });
    expect(decideGovernance(paths, at('draft'), 'approved')).toMatchObject({ kind: 'decided', decision: 'DENY' });
    expect(decideGovernance(paths, at('approved'), 'review')).toMatchObject({ kind: 'decided', decision: 'DENY' });
    const unknown = decideGovernance(paths, at('lost'), 'review');
    expect(unknown).toMatchObject({ kind: 'refused', modelDefinesStates: true });
    expect(decideGovernance(paths, at('draft'), 'approved')).toMatchObject({
      allowed: [{ target_symbol: 'review', target_state: 'review', target_ordinal: 2, target_component_id: 'mc-wf', paths: ['mc-wf'] }],
    });
  });

  it('has no workflow for a model without states and an instance without a workflow', () => {
    const outcome = decideGovernance(modelWorkflow(fixture('dm-no-governance.xsd')), { currentState: 'draft', paths: [] }, 'review');
    expect(outcome).toMatchObject({ kind: 'refused', modelDefinesStates: false, paths: [] });
  });
});

describe("workflow governance from the instance's own tree", () => {
  it('branches where two paths share a state', () => {
    const instance = instanceGovernance(fixture('instance-branching-workflow.xml'));
    expect(instance.currentState).toBe('review');
    expect(instance.paths.map((p) => p.path)).toEqual(['Approval Path', 'Rejection Path']);
    const outcome = decideGovernance([], instance, 'approved');
    expect(outcome).toMatchObject({ kind: 'decided', decision: 'PERMIT' });
    expect(outcome.allowed.map((t) => t.target_symbol)).toEqual(['approved', 'rejected']);
    expect(decideGovernance([], instance, 'archived')).toMatchObject({ decision: 'DENY' });
  });

  it('sees through XdAdapter wrappers of a reference-model-valid instance', () => {
    const instance = instanceGovernance(fixture('instance-rm-valid-workflow.xml'));
    expect(instance.currentState).toBe('draft');
    expect(instance.paths.map((p) => p.states.map((s) => s.symbol))).toEqual([['draft', 'review', 'published']]);
    expect(decideGovernance([], instance, 'review')).toMatchObject({ decision: 'PERMIT' });
    expect(decideGovernance([], instance, 'published')).toMatchObject({ decision: 'DENY' });
  });
});
