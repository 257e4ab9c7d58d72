import type { MessagePort } from 'node:worker_threads';
import { CsvError, type CsvModel } from '../domain/csv';
import { CsvModelReader } from '../domain/csv-stream';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

/** What the event loop sends on the port, one message per request of the thread: the next part of the file, or
 * `null` once it is all sent, or `{ failed }` when reading it failed (the event loop rethrows its own error). */
export type CsvPart = Uint8Array | null | { failed: string };

/** The model, or the CsvError's message (it names the CSV_MAX_* limit passed): error classes do not cross threads. */
export type CsvTaskResult = { ok: true; model: CsvModel } | { ok: false; message: string };

/** The upload job's CPU work: reads the CSV part by part from `port` (asking for each with `'next'`), decoding
 * strict UTF-8 and folding each row into the model as it ends, so neither thread holds the whole table. */
export function modelFromCsvStream(port: MessagePort): Promise<Outcome<CsvTaskResult>> {
  return settle(() => readModel(port));
}

async function readModel(port: MessagePort): Promise<CsvTaskResult> {
  const reader = new CsvModelReader();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const next = () =>
    new Promise<CsvPart>((resolve) => {
      port.once('message', resolve);
      port.postMessage('next');
    });
  try {
    for (;;) {
      const part = await next();
      if (part !== null && !(part instanceof Uint8Array)) throw new Error(`reading the file failed: ${part.failed}`);
      let text: string;
      try {
        text = part === null ? decoder.decode() : decoder.decode(part, { stream: true });
      } catch {
        throw new CsvError('The file could not be read as UTF-8 CSV.');
      }
      reader.push(text);
      if (part === null) break;
    }
    return { ok: true, model: reader.end() };
  } catch (error) {
    if (error instanceof CsvError) return { ok: false, message: error.message };
    throw error;
  } finally {
    port.close();
  }
}
