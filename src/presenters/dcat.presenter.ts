import { Writer, type Quad } from 'n3';
import type { Links } from '../lib/links';
import { blankNode, literal, namedNode, quad } from '../rdf/terms';

/** The DCAT 3 catalog of the public model library: one `dcat:Dataset` per published model (its catalog page), with
 * the distributions the DCAT exporters list for it (the XSD, the JSON-LD, the SHACL shapes, the package ZIP, and the
 * published schema at `/dmlib/` with its sha256 as an `spdx:checksum`), as Turtle or as JSON-LD (one node per
 * subject in `@graph`, the same triples). */

interface DcatModelView {
  ctId: string;
  title: string;
  description: string | null;
  created: Date;
  modified: Date;
  author: string | null;
  projectName: string;
  language: string;
  subject: string | null;
  publisher: string | null;
  rights: string | null;
  source: string | null;
  /** The current published schema at /dmlib/, when recorded. */
  schema: { sha256: string; size: number } | null;
}

export interface DcatCatalogView {
  models: DcatModelView[];
}

const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  dcat: 'http://www.w3.org/ns/dcat#',
  dcterms: 'http://purl.org/dc/terms/',
  foaf: 'http://xmlns.com/foaf/0.1/',
  spdx: 'http://spdx.org/rdf/terms#',
  sdc4: 'https://semanticdatacharter.com/ns/sdc4/',
};
type Prefix = keyof typeof NS;
const term = (prefix: Prefix, local: string) => namedNode(`${NS[prefix]}${local}`);
const MEDIA_TYPE = 'https://www.iana.org/assignments/media-types/';

/** The distributions of a model: key, title, URL (null: not served) and IANA media type. */
function distributions(m: DcatModelView, links: Links): Array<{ key: string; title: string; url: string; mediaType: string; checksum?: boolean }> {
  return [
    { key: 'xsd', title: 'XML Schema of the model', url: links.model(m.ctId, 'xsd'), mediaType: 'application/xml' },
    { key: 'jsonld', title: 'The model as JSON-LD', url: links.model(m.ctId, 'jsonld'), mediaType: 'application/ld+json' },
    { key: 'shacl', title: 'SHACL shapes for instance data', url: links.model(m.ctId, 'shacl'), mediaType: 'text/turtle' },
    {
      key: 'zip',
      title: 'The model package (ZIP)',
      url: links.catalog(`dms/${encodeURIComponent(m.ctId)}/artifacts/zip`),
      mediaType: 'application/zip',
    },
    {
      key: 'dmlib',
      title: 'The published model schema',
      url: `${links.base}/dmlib/dm-${encodeURIComponent(m.ctId)}.xsd`,
      mediaType: 'application/xml',
      checksum: true,
    },
  ];
}

/** The catalog's triples, in a stable order. */
function dcatQuads(view: DcatCatalogView, links: Links): Quad[] {
  const quads: Quad[] = [];
  const add = (s: Quad['subject'], p: Quad['predicate'], o: Quad['object']) => quads.push(quad(s, p, o));
  const a = term('rdf', 'type');
  const text = (value: string) => literal(value);
  const dateTime = (value: Date) => literal(value.toISOString(), term('xsd', 'dateTime'));
  const agent = (name: string) => {
    const node = blankNode();
    add(node, a, term('foaf', 'Agent'));
    add(node, term('foaf', 'name'), text(name));
    return node;
  };

  const catalog = namedNode(links.catalog('dcat.ttl').replace(/\/$/, ''));
  add(catalog, a, term('dcat', 'Catalog'));
  add(catalog, term('dcterms', 'title'), literal('SDC4 data model library', 'en'));
  add(catalog, term('dcterms', 'description'), literal('Every published, public SDC4 data model of this studio, with its artefacts.', 'en'));
  add(catalog, term('dcterms', 'publisher'), agent('SDC4 studio'));
  add(catalog, term('foaf', 'homepage'), namedNode(links.catalog('dms')));
  const latest = view.models.reduce<Date | null>((max, m) => (max === null || m.modified > max ? m.modified : max), null);
  if (latest) add(catalog, term('dcterms', 'modified'), dateTime(latest));

  for (const m of view.models) {
    const dataset = namedNode(links.model(m.ctId));
    add(catalog, term('dcat', 'dataset'), dataset);
    add(dataset, a, term('dcat', 'Dataset'));
    add(dataset, term('dcterms', 'identifier'), text(m.ctId));
    add(dataset, term('dcterms', 'title'), text(m.title));
    add(dataset, term('dcterms', 'description'), text(m.description ?? m.title));
    add(dataset, term('dcterms', 'issued'), dateTime(m.created));
    add(dataset, term('dcterms', 'modified'), dateTime(m.modified));
    if (m.author) add(dataset, term('dcterms', 'creator'), agent(m.author));
    add(dataset, term('dcterms', 'publisher'), agent(m.publisher ?? m.projectName));
    const primary = m.language.split('-')[0].toLowerCase();
    if (/^[a-z]{2}$/.test(primary)) add(dataset, term('dcterms', 'language'), namedNode(`http://id.loc.gov/vocabulary/iso639-1/${primary}`));
    for (const keyword of (m.subject ?? '').split(';').map((k) => k.trim())) if (keyword) add(dataset, term('dcat', 'keyword'), text(keyword));
    if (m.rights) {
      const rights = blankNode();
      add(rights, a, term('dcterms', 'RightsStatement'));
      add(rights, term('rdfs', 'label'), text(m.rights));
      add(dataset, term('dcterms', 'rights'), rights);
    }
    if (m.source) add(dataset, term('dcterms', 'source'), text(m.source));
    add(dataset, term('dcterms', 'conformsTo'), namedNode(NS.sdc4));
    add(dataset, term('dcat', 'landingPage'), dataset);
    for (const d of distributions(m, links)) {
      const distribution = namedNode(`${links.model(m.ctId)}#${d.key}`);
      add(dataset, term('dcat', 'distribution'), distribution);
      add(distribution, a, term('dcat', 'Distribution'));
      add(distribution, term('dcterms', 'title'), text(d.title));
      add(distribution, term('dcat', 'accessURL'), namedNode(d.url));
      add(distribution, term('dcat', 'downloadURL'), namedNode(d.url));
      add(distribution, term('dcat', 'mediaType'), namedNode(`${MEDIA_TYPE}${d.mediaType}`));
      if (d.checksum && m.schema) {
        add(distribution, term('dcat', 'byteSize'), literal(String(m.schema.size), term('xsd', 'nonNegativeInteger')));
        const checksum = blankNode();
        add(checksum, a, term('spdx', 'Checksum'));
        add(checksum, term('spdx', 'algorithm'), term('spdx', 'checksumAlgorithm_sha256'));
        add(checksum, term('spdx', 'checksumValue'), literal(m.schema.sha256, term('xsd', 'hexBinary')));
        add(distribution, term('spdx', 'checksum'), checksum);
      }
    }
  }
  return quads;
}

export function renderDcatTurtle(view: DcatCatalogView, links: Links): Promise<string> {
  const writer = new Writer({ prefixes: NS });
  writer.addQuads(dcatQuads(view, links));
  return new Promise((resolve, reject) => writer.end((error, result: string) => (error ? reject(error) : resolve(result))));
}

/** JSON-LD: the prefixes as the context, every subject once in `@graph` with its values as `@id` or typed `@value`. */
export function renderDcatJsonLd(view: DcatCatalogView, links: Links): Record<string, unknown> {
  const nodes = new Map<string, Record<string, unknown>>();
  const id = (t: Quad['subject'] | Quad['object']) => (t.termType === 'BlankNode' ? `_:${t.value}` : t.value);
  for (const q of dcatQuads(view, links)) {
    const subject = id(q.subject);
    const node = nodes.get(subject) ?? { '@id': subject };
    nodes.set(subject, node);
    if (q.predicate.value === `${NS.rdf}type`) {
      node['@type'] = [...((node['@type'] as string[] | undefined) ?? []), q.object.value];
      continue;
    }
    const o = q.object;
    const value =
      o.termType === 'Literal'
        ? {
            '@value': o.value,
            ...(o.language ? { '@language': o.language } : o.datatype.value === `${NS.xsd}string` ? {} : { '@type': o.datatype.value }),
          }
        : { '@id': id(o) };
    node[q.predicate.value] = [...((node[q.predicate.value] as unknown[] | undefined) ?? []), value];
  }
  return { '@context': NS, '@graph': [...nodes.values()] };
}
