import { parseJsonObject } from '../lib/body-text';
import { utf8RoundTrips } from '../xml/safe-parse';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** A large JSON request body decoded and parsed off the event loop (see OFF_LOOP_JSON_BYTES). */
export function jsonObject(raw: Uint8Array): Promise<Outcome<Record<string, unknown>>> {
  return settle(() => parseJsonObject(raw));
}

/** The same, its `xml_content` (when a string) sent back as UTF-8 bytes: a validate/xml body's megabytes of XML
 * then reach the event loop as one buffer outside its heap, not as a string its collector copies and scans, and go
 * on to the validating thread as they came. */
export function jsonObjectXmlBytes(raw: Uint8Array): Promise<Outcome<Record<string, unknown>>> {
  return settle(() => {
    const fields = parseJsonObject(raw);
    const xml = fields.xml_content;
    if (typeof xml !== 'string') return fields;
    const bytes = Buffer.from(xml, 'utf8');
    // Bytes are decoded by their declaration: a text declaring another encoding (or with a BOM) stays text.
    return utf8RoundTrips(xml, bytes) ? { ...fields, xml_content: bytes } : fields;
  });
}
