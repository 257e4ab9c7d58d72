import type { CallerSpec } from './callers';
import type { Expected } from './oracle';
import type { Observation } from './transport';

/** One operation × one caller: how to send it, and what must come back. */
export interface Cell {
  operation: string;
  caller: CallerSpec;
  /** Cells that must not overlap with others (streams that would see other cells' events). */
  phase: 'http' | 'stream';
  run: () => Promise<{ observed: Observation; expected: Expected }>;
}

export interface CellFailure {
  cell: string;
  problem: string;
}

/** Compares only what the expectation names; a text expectation is a substring of the answer. */
function compare(expected: Expected, observed: Observation): void {
  const seen: Record<string, unknown> = { status: observed.status };
  if ('body' in expected) seen.body = observed.body;
  if (expected.contentType !== undefined) seen.contentType = observed.contentType;
  if (expected.location !== undefined) seen.location = observed.location;
  if (expected.text !== undefined) seen.text = observed.text?.includes(expected.text) ? expected.text : observed.text?.slice(0, 300);
  if (!('body' in expected) && observed.status !== expected.status) seen.answer = observed.body ?? observed.text?.slice(0, 300);
  expect(seen).toEqual(expected);
}

async function runCell(cell: Cell): Promise<CellFailure | null> {
  const name = `${cell.operation} as ${cell.caller.name}`;
  try {
    const { observed, expected } = await cell.run();
    compare(expected, observed);
    return null;
  } catch (error) {
    return { cell: name, problem: (error as Error).message };
  }
}

/** Runs cells `limit` at a time; every mismatch is collected, none stops the others. */
export async function runCells(cells: Cell[], limit: number): Promise<CellFailure[]> {
  const failures: CellFailure[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cells.length) {
      const cell = cells[next++];
      const failure = await runCell(cell);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, cells.length) }, worker));
  return failures;
}
