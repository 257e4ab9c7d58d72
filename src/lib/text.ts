/** Characters (Unicode code points) in a string: what the contract's "at most N characters" counts, so an
 * emoji (two UTF-16 units) is one. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; a lone surrogate still counts as one.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** NUL (Postgres text refuses it) or a lone UTF-16 surrogate (UTF-8 cannot encode it: it would be stored as
 * U+FFFD, so two different names could become equal). */
export function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

const describe = (path: string) => path || 'value';

/**
 * The first string in a JSON-like value (object keys included) that cannot be stored, as a field path such as
 * `data.components[2].label`; null when every string is storable. Iterative: a deeply nested body cannot
 * overflow the stack here.
 */
export function findUnstorableText(value: unknown, root = ''): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnstorable(current)) return describe(path);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push([item, `${path}[${index}]`]));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const child = path ? `${path}.${key}` : key;
        if (isUnstorable(key)) return describe(path);
        stack.push([item, child]);
      }
    }
  }
  return null;
}

/** The message every transport gives for such a field. */
export const unstorableTextMessage = (field: string) =>
  `${field.slice(0, 200)} contains a NUL character or an unpaired UTF-16 surrogate: send well-formed text without U+0000.`;
