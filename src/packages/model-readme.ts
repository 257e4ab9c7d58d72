import { markdownInline } from './escape';
import type { PackageModel } from './package-model';
import { SDC4_NS, SDC4_XSD_URL } from './package-model';

/** README.md of a model package: what each file is and how to validate an instance. */

const DESCRIPTIONS: Array<[suffix: string, text: string]> = [
  ['.xsd', 'XML Schema of the model (includes the SDC4 reference model by its canonical URL)'],
  ['.xml', 'example instance, valid against the schema'],
  ['.html', 'documentation: the model tree and its components'],
  ['_shacl.ttl', 'SHACL shapes for instance data'],
  ['.ttl', 'the model as RDF (Turtle)'],
  ['.rdf', 'the model as RDF (RDF/XML)'],
  ['.jsonld', 'the model as JSON-LD'],
  ['-instance.json', 'the example instance as JSON'],
];

function describe(name: string): string {
  return DESCRIPTIONS.find(([suffix]) => name.endsWith(suffix))?.[1] ?? 'this file';
}

export function generateReadme(pm: PackageModel, fileNames: string[]): string {
  const m = pm.model;
  const base = `dm-${m.ctId}`;
  return [
    `# ${markdownInline(m.title)}`,
    '',
    ...(m.description ? [markdownInline(m.description), ''] : []),
    `SDC4 data model \`${base}\` with ${pm.clusters.length} cluster(s) and ${pm.components.length} component(s).`,
    `Its root element is \`${base}\` in the namespace \`${SDC4_NS}\`.`,
    '',
    '## Files',
    '',
    ...fileNames.filter((name) => name !== 'README.md').map((name) => `- \`${name}\`: ${describe(name)}`),
    '',
    '## Validating an instance',
    '',
    `The schema includes \`${SDC4_XSD_URL}\`, an XML Schema 1.1 document (one \`xsd:assert\`).`,
    'Validate with an XSD 1.1 processor, for example:',
    '',
    '```sh',
    `xmlschema-validate --version 1.1 --schema ${base}.xsd ${base}.xml`,
    '```',
    '',
    'An XSD 1.0 processor such as libxml2 (`xmllint`) accepts the schema once the assertion is removed from a local',
    'copy of sdc4.xsd and the include points at that copy.',
    '',
  ].join('\n');
}
