/** Errors of the XML core. The transports map them to the contract's codes: XmlParseError → 400 INVALID_XML,
 * SchemaCompileError and XmlValidationError → 422 VALIDATION_FAILED. */

/** One problem in a document, at a 1-based line (0 when the processor gave none). */
export interface XmlError {
  line: number;
  message: string;
}

/** The document is not well-formed, is hostile (DTD, too deep, too large) or is not text we can decode. */
export class XmlParseError extends Error {
  constructor(
    message: string,
    readonly rootTag: string | null = null,
    readonly line: number | null = null,
  ) {
    super(message);
    this.name = 'XmlParseError';
  }
}

/** The instance has errors that EV correction may not fix. */
export class XmlValidationError extends Error {
  constructor(readonly errors: XmlError[]) {
    super(`XML failed schema validation with ${errors.length} error(s): ${errors.map(formatError).join('; ')}`);
    this.name = 'XmlValidationError';
  }
}

/** A located problem inside one of the schema documents. */
export interface SchemaProblem {
  file: string;
  line: number;
  message: string;
}

/** The schema set does not compile (or cannot be assembled); `messages` are the compiler's own words. */
export class SchemaCompileError extends Error {
  readonly messages: string[];

  constructor(readonly problems: SchemaProblem[]) {
    super(`Schema does not compile: ${problems.map((p) => p.message).join('; ')}`);
    this.name = 'SchemaCompileError';
    this.messages = problems.map((p) => (p.file ? `${p.file}:${p.line}: ${p.message}` : p.message));
  }
}

function formatError(error: XmlError): string {
  return `line ${error.line}: ${error.message}`;
}

/** The result's `validation_errors`: `line-<n>` → message, several messages on one line joined, null when none. */
export function errorsByLine(errors: readonly XmlError[]): Record<string, string> | null {
  if (errors.length === 0) return null;
  const byLine = new Map<string, string[]>();
  for (const e of [...errors].sort((a, b) => a.line - b.line)) {
    const key = `line-${e.line}`;
    byLine.set(key, [...(byLine.get(key) ?? []), e.message]);
  }
  return Object.fromEntries([...byLine].map(([key, messages]) => [key, messages.join(' ')]));
}
