import { AppError, AppGeneralError } from '../lib/app-api-errors';
import { DomainError } from '../lib/errors';

/** A domain error as plain data: worker threads pass results by structured clone, which drops error classes. */
interface PortableError {
  kind: 'app' | 'general' | 'domain';
  status: number;
  code: string;
  message: string;
  data: Record<string, unknown>;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: PortableError };

/** In a worker: the task's value, or its domain error as data; any other error rejects the task as it is. */
export async function settle<T>(work: () => T | Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: portable('app', error, error.details) };
    if (error instanceof AppGeneralError) return { ok: false, error: portable('general', error, error.fieldErrors) };
    if (error instanceof DomainError) return { ok: false, error: portable('domain', error, error.fields) };
    throw error;
  }
}

/** On the event loop: the value, or the same domain error rebuilt. */
export function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { kind, status, code, message, data } = outcome.error;
  if (kind === 'app') throw new AppError(status, code, message, data);
  if (kind === 'general') throw new AppGeneralError(status, code, message, data as Record<string, string[]>);
  throw new DomainError(status, code, message, data);
}

function portable(kind: PortableError['kind'], error: DomainError, data: Record<string, unknown>): PortableError {
  return { kind, status: error.status, code: error.code, message: error.message, data };
}
