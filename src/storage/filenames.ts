import { FILENAME_PATTERN_MESSAGE, INVALID_EXTENSION_MESSAGE } from '../lib/app-api-errors';

/** A data model's ct_id as it may appear in a stored name: CUID2 (lower-case ASCII letters and digits). */
const CT_ID = '[a-z0-9]{2,64}';
export const CT_ID_PATTERN = new RegExp(`^${CT_ID}$`);

const SCHEMA_EXTENSIONS = ['.xsd', '.html', '.owl'] as const;
export const RDF_EXTENSIONS = ['.ttl', '.rdf'] as const;

const SCHEMA_NAME = new RegExp(`^dm-(${CT_ID})\\.(xsd|html|owl)$`);
const RDF_NAME = new RegExp(`^dm-(${CT_ID})(_shacl)?\\.(ttl|rdf)$`);

/** The extension as written (`.xsd`), '' when there is none. */
function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot <= 0 || dot < Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) ? '' : filename.slice(dot);
}

export type NameCheck = { ok: true; ctId: string } | { ok: false; error: string; reason: 'extension' | 'pattern' };

/** A schema file: extension first (.xsd, .html, .owl), then the `dm-{ct_id}.{ext}` pattern. */
export function checkSchemaFilename(filename: string): NameCheck {
  if (!(SCHEMA_EXTENSIONS as readonly string[]).includes(extensionOf(filename))) {
    return { ok: false, error: INVALID_EXTENSION_MESSAGE, reason: 'extension' };
  }
  const match = SCHEMA_NAME.exec(filename);
  return match ? { ok: true, ctId: match[1] } : { ok: false, error: FILENAME_PATTERN_MESSAGE, reason: 'pattern' };
}

/** An RDF file: `dm-{ct_id}.ttl`, `dm-{ct_id}.rdf` or the SHACL shapes `dm-{ct_id}_shacl.ttl`. */
export function checkRdfFilename(filename: string): NameCheck {
  if (!(RDF_EXTENSIONS as readonly string[]).includes(extensionOf(filename))) {
    return { ok: false, error: 'Invalid file type: .ttl or .rdf expected.', reason: 'extension' };
  }
  const match = RDF_NAME.exec(filename);
  return match ? { ok: true, ctId: match[1] } : { ok: false, error: FILENAME_PATTERN_MESSAGE, reason: 'pattern' };
}

export function isZipFilename(filename: string): boolean {
  return extensionOf(filename).toLowerCase() === '.zip';
}

/** The name a ZIP is stored under: the client's last path segment with anything but [A-Za-z0-9._-] replaced. */
export function storedZipName(filename: string): string {
  const base = filename.split(/[/\\]/).pop() ?? '';
  const stem = base
    .slice(0, base.length - 4)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._-]+/, '')
    .slice(0, 180);
  return `${stem || 'upload'}.zip`;
}

/** The model's schema graph: `urn:sdc4:dm-{ct_id}:schema`. */
export function schemaGraphUri(ctId: string): string {
  return `urn:sdc4:dm-${ctId}:schema`;
}
