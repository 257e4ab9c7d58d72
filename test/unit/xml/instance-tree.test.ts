import { instanceToJson } from '../../../src/xml/instance-json';
import { extractInstanceRdf } from '../../../src/xml/instance-rdf';
import { parseInstanceTree } from '../../../src/xml/instance-tree';
import { peekRootModel } from '../../../src/xml/root-peek';
import { applyXmlLimits, DEFAULT_XML_LIMITS, parseXmlDom } from '../../../src/xml/safe-parse';
import { XmlParseError } from '../../../src/xml/xml-errors';
import { STATE_POPULATION_CT_ID, statePopulationXml, statePopulationXsd } from './fixtures';

const SDC4 = 'https://semanticdatacharter.com/ns/sdc4/';

describe('parseInstanceTree (the one saxes pass of validate/xml)', () => {
  afterEach(() => applyXmlLimits(DEFAULT_XML_LIMITS));

  it('gives the same JSON rendering and triples as the slimdom tree', () => {
    const xml = statePopulationXml();
    const tree = parseInstanceTree(xml);
    const dom = parseXmlDom(xml);
    expect(tree.dmCtId).toBe(STATE_POPULATION_CT_ID);
    expect(instanceToJson(tree)).toEqual(instanceToJson(dom));
    const rdf = (document: Parameters<typeof extractInstanceRdf>[0]['document']) =>
      extractInstanceRdf({ document, instanceId: 'i-1', dmCtId: STATE_POPULATION_CT_ID, modelXsd: statePopulationXsd().content }).ntriples;
    expect(rdf(tree)).toBe(rdf(dom));
  });

  it('reads attributes and namespace bindings as the DOM does', () => {
    const tree = parseInstanceTree(
      `<a:root xmlns:a="urn:a" xmlns="urn:d" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><b xsi:type="a:T" c="1"><![CDATA[x]]>y<d xmlns=""/></b></a:root>`,
    );
    const b = tree.documentElement.children[0];
    const d = b.children[0];
    expect(b.getAttributeNS('http://www.w3.org/2001/XMLSchema-instance', 'type')).toBe('a:T');
    expect(b.getAttributeNS(null, 'c')).toBe('1');
    expect(b.getAttributeNS(null, 'missing')).toBeNull();
    expect(b.lookupNamespaceURI('a')).toBe('urn:a');
    expect(b.lookupNamespaceURI(null)).toBe('urn:d');
    expect(d.lookupNamespaceURI(null)).toBeNull();
    expect(d.namespaceURI).toBeNull();
    expect(b.childNodes.map((n) => n.nodeType)).toEqual([4, 3, 1]);
    expect(tree.dmCtId).toBeNull();
    expect(tree.rootTag).toBe('a:root');
  });

  it('enforces the structural limits in the same pass, naming the limit', () => {
    applyXmlLimits({ maxAttributesPerElement: 3 });
    const attributes = Array.from({ length: 5 }, (_, i) => ` a${i}="v"`).join('');
    expect(() => parseInstanceTree(`<r${attributes}/>`)).toThrow(XmlParseError);
    expect(() => parseInstanceTree(`<r${attributes}/>`)).toThrow(/XML_MAX_ATTRIBUTES_PER_ELEMENT/);
    expect(() => parseInstanceTree('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>')).toThrow(/DOCTYPE/);
  });
});

describe('peekRootModel (the event loop’s hint)', () => {
  it('finds the model of an SDC4 root from the first bytes, as text or bytes, with or without a BOM', () => {
    const xml = statePopulationXml();
    expect(peekRootModel(xml)).toBe(STATE_POPULATION_CT_ID);
    expect(peekRootModel(Buffer.from(xml))).toBe(STATE_POPULATION_CT_ID);
    expect(peekRootModel(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]))).toBe(STATE_POPULATION_CT_ID);
    expect(peekRootModel(`<?xml version="1.0"?>\n<!-- c --><sdc4:dm-abc xmlns:sdc4='${SDC4}'>`)).toBe('abc');
    expect(peekRootModel(`<dm-abc xmlns="${SDC4}" a="1">`)).toBe('abc');
  });

  it('gives null whenever it cannot tell, leaving the decision to the thread', () => {
    expect(peekRootModel(`<sdc4:dm-abc xmlns:sdc4="urn:other">`)).toBeNull();
    expect(peekRootModel(`<sdc4:dm-abc xmlns:x="${SDC4}">`)).toBeNull();
    expect(peekRootModel(`<dm-abc>`)).toBeNull();
    expect(peekRootModel('not xml')).toBeNull();
    expect(peekRootModel(`<!DOCTYPE x><dm-abc xmlns="${SDC4}">`)).toBeNull();
    expect(peekRootModel(Buffer.from(`<dm-abc xmlns="${SDC4}">`, 'utf16le'))).toBeNull();
    expect(peekRootModel(`<dm-abc ${'a="1" '.repeat(1000)}xmlns="${SDC4}">`)).toBeNull();
  });
});
