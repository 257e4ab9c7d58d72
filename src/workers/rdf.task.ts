import { parsingError } from '../lib/app-api-errors';
import { addRdf, RdfParseError, toNTriples, type RdfFormat } from '../rdf/rdf-parse';
import { settle, type Outcome } from './outcome';
import { applyThreadSettings } from './thread-setup';

applyThreadSettings();

export interface SchemaGraphTask {
  uploaded: { filename: string; bytes: Uint8Array; format: RdfFormat };
  /** The model's other stored RDF files, which share its schema graph. */
  siblings: Array<{ filename: string; text: string; format: RdfFormat }>;
}

export interface SchemaGraphResult {
  ntriples: string;
  count: number;
  /** Stored siblings that no longer parse, left out of the graph. */
  skipped: Array<{ filename: string; message: string }>;
}

/** upload/rdf's CPU work: the uploaded file parsed (PARSING_ERROR when it does not), united with its siblings. */
export function schemaGraph(task: SchemaGraphTask): Promise<Outcome<SchemaGraphResult>> {
  return settle(async () => {
    const lines = new Set<string>();
    await addUploaded(task.uploaded, lines);
    const skipped: SchemaGraphResult['skipped'] = [];
    for (const sibling of task.siblings) {
      const own = new Set<string>();
      try {
        await addRdf(Buffer.from(sibling.text), sibling.format, own);
      } catch (error) {
        if (!(error instanceof RdfParseError)) throw error;
        skipped.push({ filename: sibling.filename, message: error.message });
        continue;
      }
      for (const line of own) lines.add(line);
    }
    return { ...toNTriples(lines), skipped };
  });
}

async function addUploaded({ filename, bytes, format }: SchemaGraphTask['uploaded'], lines: Set<string>): Promise<void> {
  try {
    await addRdf(bytes, format, lines);
  } catch (error) {
    if (error instanceof RdfParseError) throw parsingError(filename, error.message);
    throw error;
  }
}
