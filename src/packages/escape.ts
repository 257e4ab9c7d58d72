/** Escaping for every text format a package carries. Labels and descriptions are user input: quotes, `<`, `&`,
 * newlines and any Unicode must survive each format unchanged. */

/** Characters XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const XML_INVALID = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes what no XML document can hold, so every artefact of a package states the same text. */
export function xmlSafe(text: string): string {
  return text.replace(XML_INVALID, '');
}

/** Element content. CR is escaped because a parser would turn a literal CR into LF. */
export function xmlText(text: string): string {
  return xmlSafe(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Attribute values (double-quoted). Tabs and line breaks are escaped so attribute normalisation keeps them. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

export function htmlText(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** A Turtle string literal in double quotes (ECHAR escapes; other controls as UCHAR). */
export function turtleString(text: string): string {
  const body = text.replace(/[\\"\n\r\t\b\f]|[\u0000-\u001F\u007F]/g, (ch) => {
    switch (ch) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\t':
        return '\\t';
      case '\b':
        return '\\b';
      case '\f':
        return '\\f';
      default:
        return `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    }
  });
  return `"${body}"`;
}

/** Markdown text on one line with its special characters escaped. */
export function markdownInline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/([\\`*_{}[\]()#+\-.!<>|])/g, '\\$1');
}

/** JSON for files meant to be read: stable two-space indentation. */
export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
