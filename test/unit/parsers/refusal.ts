import { DomainError } from '../../../src/lib/errors';

/** The REST body a parser's refusal renders to: status, error_type, message and the contract's extra fields. */
export function refusal(parse: () => unknown): { status: number; code: string; message: string; fields: Record<string, unknown> } {
  try {
    parse();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { status: error.status, code: error.code, message: error.message, fields: error.fields };
  }
  throw new Error('the parser accepted its input');
}
