import type { DataType } from './model-tree';

export class CsvError extends Error {}

/** Bounds on an uploaded CSV (README: Configuration, CSV_MAX_*), each refused with its setting named. */
export interface CsvLimits {
  maxRows: number;
  maxColumns: number;
  maxCellLength: number;
}

/** The limits in force in this thread: the defaults until the service (or a worker thread) applies its settings. */
export const CSV_LIMITS: CsvLimits = { maxRows: 1_000_000, maxColumns: 1_000, maxCellLength: 65_536 };

export function applyCsvLimits(limits: Partial<CsvLimits>): void {
  Object.assign(CSV_LIMITS, limits);
}

export function checkRow(row: string[], rows: number): void {
  if (row.length > CSV_LIMITS.maxColumns) throw new CsvError(`The CSV has more than ${CSV_LIMITS.maxColumns} columns (CSV_MAX_COLUMNS).`);
  if (rows >= CSV_LIMITS.maxRows) throw new CsvError(`The CSV has more than ${CSV_LIMITS.maxRows} rows (CSV_MAX_ROWS).`);
}

export function checkCell(field: string): void {
  if (field.length > CSV_LIMITS.maxCellLength)
    throw new CsvError(`A CSV cell is longer than ${CSV_LIMITS.maxCellLength} characters (CSV_MAX_CELL_LENGTH).`);
}

/** RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF. Throws CsvError on an unterminated quote. */
export function parseCsv(text: string, maxRows = Infinity): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  while (i < input.length) {
    const ch = input[i];
    if (quoted) {
      if (ch === '"') {
        if (input[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      if (field.length > CSV_LIMITS.maxCellLength) checkCell(field);
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') {
        checkRow(row, out.length);
        out.push(row);
      }
      row = [];
      if (out.length >= maxRows) return out;
      if (ch === '\r' && input[i + 1] === '\n') i++;
    } else {
      field += ch;
      if (field.length > CSV_LIMITS.maxCellLength) checkCell(field);
    }
    i++;
  }
  if (quoted) throw new CsvError('The CSV has an unterminated quoted field.');
  if (field !== '' || row.length) {
    row.push(field);
    if (row.length > 1 || row[0] !== '') out.push(row);
  }
  return out;
}

export const INTEGER = /^[+-]?\d+$/;
export const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
export const BOOLEAN = /^(true|false|yes|no)$/i;
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** The narrowest SDC4 type every non-empty value of a column fits: integers → XdCount, decimals →
 * XdQuantity, booleans → XdBoolean, ISO dates or date-times → XdTemporal, else XdString. */
function inferColumnType(values: string[]): DataType {
  const present = values.map((v) => v.trim()).filter((v) => v !== '');
  if (!present.length) return 'XdString';
  if (present.every((v) => INTEGER.test(v))) return 'XdCount';
  if (present.every((v) => DECIMAL.test(v))) return 'XdQuantity';
  if (present.every((v) => BOOLEAN.test(v))) return 'XdBoolean';
  if (present.every((v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T'))))) return 'XdTemporal';
  return 'XdString';
}

export interface CsvModel {
  columns: Array<{ label: string; dataType: DataType }>;
  rows: number;
}

/** Header row → component labels, one inferred type per column. */
export function modelFromCsv(text: string): CsvModel {
  const table = parseCsv(text);
  if (!table.length) throw new CsvError('The CSV is empty.');
  const header = table[0].map((h) => h.trim());
  if (header.length > CSV_LIMITS.maxColumns) throw new CsvError(`The CSV has more than ${CSV_LIMITS.maxColumns} columns (CSV_MAX_COLUMNS).`);
  if (header.some((h) => h === '')) throw new CsvError('The header row has an empty column name: the first row must name every column.');
  const duplicate = header.find((h, i) => header.indexOf(h) !== i);
  if (duplicate) throw new CsvError(`The header row names "${duplicate}" twice.`);
  const body = table.slice(1);
  if (!body.length) throw new CsvError('The CSV has a header but no data rows.');
  const ragged = body.findIndex((r) => r.length !== header.length);
  if (ragged >= 0) throw new CsvError(`Row ${ragged + 2} has ${body[ragged].length} fields; the header has ${header.length}.`);
  return {
    columns: header.map((label, i) => ({ label, dataType: inferColumnType(body.map((r) => r[i] ?? '')) })),
    rows: body.length,
  };
}
