import type { Quad } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

/** RDF/XML parsed by a library the service does not use, so tests read its output independently. */
export function parseRdfXml(text: string): Promise<Quad[]> {
  return new Promise((resolve, reject) => {
    const quads: Quad[] = [];
    const parser = new RdfXmlParser();
    parser.on('data', (quad: Quad) => quads.push(quad));
    parser.on('error', reject);
    parser.on('end', () => resolve(quads));
    parser.write(text);
    parser.end();
  });
}
