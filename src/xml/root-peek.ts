import { dmCtIdOf } from './sdc4';

/** How much of the start of a document the event loop looks at: a prolog and a root start tag fit easily. */
const PEEK_CHARS = 4096;
const NAME = '[A-Za-z_][\\w.-]*';
const ROOT_TAG = new RegExp(
  `^(?:\\s|<\\?[\\s\\S]*?\\?>|<!--[\\s\\S]*?-->)*<(?:(${NAME}):)?(${NAME})((?:\\s+[^\\s=<>]+\\s*=\\s*(?:"[^"<]*"|'[^'<]*'))*)\\s*/?>`,
);
const ATTRIBUTE = /([^\s=<>]+)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;

/**
 * A guess, on the event loop, at the data model of an instance from its first few kilobytes: the ct_id of a
 * `dm-{ct_id}` root whose namespace the root start tag itself declares (as every SDC4 instance does), else null.
 * Only a hint for choosing the schema: the worker thread parses the whole document and checks the root itself.
 * Bytes are read as Latin-1 (the names and the namespace are ASCII); UTF-16 and odd prologs give null.
 */
export function peekRootModel(xml: string | Uint8Array): string | null {
  let head: string;
  if (typeof xml === 'string') head = xml.slice(0, PEEK_CHARS);
  else {
    const bom = xml[0] === 0xef && xml[1] === 0xbb && xml[2] === 0xbf ? 3 : 0;
    head = Buffer.from(xml.buffer, xml.byteOffset + bom, Math.min(xml.byteLength - bom, PEEK_CHARS)).toString('latin1');
  }
  if (head.charCodeAt(0) === 0xfeff) head = head.slice(1);
  const root = ROOT_TAG.exec(head);
  if (!root) return null;
  const [, prefix, localName, attributes] = root;
  const wanted = prefix ? `xmlns:${prefix}` : 'xmlns';
  for (const [, name, double, single] of attributes.matchAll(ATTRIBUTE)) {
    if (name === wanted) return dmCtIdOf(double ?? single, localName);
  }
  return null;
}
