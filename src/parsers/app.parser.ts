import { AppError, invalidParameter, invalidQuery, xmlRequired } from '../lib/app-api-errors';
import { codePointLength } from '../lib/text';

/** Interface B's inputs, parsed at the edge (REST, GraphQL, admin pages, CLI) into typed values; each throws the
 * contract's exact error. Pure: no I/O. */

export interface NewAppKey {
  organization: string;
  contactEmail: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_SPARQL_LENGTH = 100_000;

function invalid(field: string, message: string): AppError {
  return new AppError(400, 'VALIDATION_ERROR', message, { field });
}

/** An organisation key to issue: a named organisation (at most 200 characters) and a contact e-mail address. */
export function parseNewAppKey(input: { organization: unknown; contactEmail: unknown }): NewAppKey {
  const organization = typeof input.organization === 'string' ? input.organization.trim() : '';
  const contactEmail = typeof input.contactEmail === 'string' ? input.contactEmail.trim() : '';
  if (!organization || codePointLength(organization) > 200) throw invalid('organization', 'organization is required (at most 200 characters).');
  if (!EMAIL.test(contactEmail) || codePointLength(contactEmail) > 254) throw invalid('contact_email', 'contact_email must be an e-mail address.');
  return { organization, contactEmail };
}

/** The JSON body's (or form field's) `xml_content`: absent or empty is XML_REQUIRED. A large JSON body's arrives as
 * its UTF-8 bytes (src/http/body.ts). */
export function parseXmlContent(value: unknown): string | Uint8Array {
  if (value === undefined || value === null || value === '') throw xmlRequired();
  if (value instanceof Uint8Array) {
    if (value.byteLength === 0) throw xmlRequired();
    return value;
  }
  if (typeof value !== 'string') throw invalidParameter('xml_content', 'xml_content must be a string holding the XML document.');
  return value;
}

/** A boolean parameter from a form field, a JSON field or the query string, the first one given; `fallback` when
 * none is. */
export function parseBooleanParameter(name: string, values: unknown[], fallback: boolean): boolean {
  const value = values.find((v) => v !== undefined && v !== null && v !== '');
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const normalized = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalized)) return true;
    if (['false', '0', 'no', 'off'].includes(normalized)) return false;
  }
  throw invalidParameter(name, `${name} must be true or false.`);
}

/** A SPARQL query text: present, not blank, at most 100,000 characters. */
export function parseSparqlQuery(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidQuery('Send a SPARQL query in "query" (GET or form POST) or as an application/sparql-query body.');
  if (codePointLength(value) > MAX_SPARQL_LENGTH) throw invalidQuery(`The query is longer than ${MAX_SPARQL_LENGTH} characters.`);
  return value;
}

/** Raw RDF bodies on `upload/rdf/` (the toolkit's distribution step posts the artefact itself): their media type and
 * the extension the stored file takes. */
export const RAW_RDF_EXTENSIONS: ReadonlyMap<string, '.ttl' | '.rdf'> = new Map([
  ['text/turtle', '.ttl'],
  ['application/x-turtle', '.ttl'],
  ['application/rdf+xml', '.rdf'],
]);

/** The first model IRI a graph names (`sdc4:dm-<ct_id>` or its full form), read from its first megabyte. */
const MODEL_IRI = /(?:\bsdc4:|semanticdatacharter\.com\/ns\/sdc4\/)dm-([A-Za-z0-9_.-]+?)(?=[\s>;,."'#)\]]|$)/;

/** A raw RDF body's file name: the `filename` query parameter as given (the upload checks its pattern), else
 * `dm-<ct_id>` of the model the graph describes, with the extension of its media type. */
export function rawRdfFilename(filenameParameter: unknown, body: Uint8Array, extension: '.ttl' | '.rdf'): string {
  if (filenameParameter !== undefined && filenameParameter !== '') {
    if (typeof filenameParameter !== 'string') throw invalidParameter('filename', 'filename must be given once, as text.');
    return filenameParameter;
  }
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 1024 * 1024)).toString('utf8');
  const match = MODEL_IRI.exec(head);
  if (!match) {
    throw invalidParameter('filename', `Name the file: ?filename=dm-<ct_id>${extension} (the graph names no sdc4:dm-<ct_id> model).`);
  }
  return `dm-${match[1]}${extension}`;
}
