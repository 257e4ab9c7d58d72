import { BOOLEAN, checkCell, checkRow, CSV_LIMITS, CsvError, DECIMAL, INTEGER, ISO_DATE, type CsvModel } from './csv';
import type { DataType } from './model-tree';

/** What a column's non-empty values all fit so far (the narrowest wins, as `inferColumnType`). */
interface ColumnFit {
  seen: boolean;
  count: boolean;
  quantity: boolean;
  boolean: boolean;
  temporal: boolean;
}

const isTemporal = (v: string) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T')));

function fitValue(fit: ColumnFit, raw: string): void {
  const v = raw.trim();
  if (v === '') return;
  fit.seen = true;
  if (fit.count && !INTEGER.test(v)) fit.count = false;
  if (fit.quantity && !DECIMAL.test(v)) fit.quantity = false;
  if (fit.boolean && !BOOLEAN.test(v)) fit.boolean = false;
  if (fit.temporal && !isTemporal(v)) fit.temporal = false;
}

function typeOf(fit: ColumnFit): DataType {
  if (!fit.seen) return 'XdString';
  if (fit.count) return 'XdCount';
  if (fit.quantity) return 'XdQuantity';
  if (fit.boolean) return 'XdBoolean';
  if (fit.temporal) return 'XdTemporal';
  return 'XdString';
}

/**
 * `modelFromCsv` over a stream of text chunks: the same RFC 4180 reading, limits (CSV_MAX_*), header checks and
 * type inference, but each row is folded into one fit per column as it ends, so memory holds one row, not the
 * table. Chunks may split a row, a quoted field, a doubled quote or a CRLF anywhere.
 */
export class CsvModelReader {
  private header: string[] | null = null;
  private fits: ColumnFit[] = [];
  private rows = 0;
  private bodyRows = 0;
  private row: string[] = [];
  private field = '';
  private quoted = false;
  /** A quote inside a quoted field whose next character (a second quote, or the end of the field) is not read yet. */
  private quoteEnds = false;
  /** A CR ended the last row; an LF right after it belongs to the same line break. */
  private afterCr = false;
  private started = false;

  push(chunk: string): void {
    let i = 0;
    if (!this.started && chunk.length) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) i = 1;
    }
    for (; i < chunk.length; i++) {
      const ch = chunk[i];
      if (this.afterCr) {
        this.afterCr = false;
        if (ch === '\n') continue;
      }
      if (this.quoteEnds) {
        this.quoteEnds = false;
        if (ch === '"') {
          this.field += '"';
          if (this.field.length > CSV_LIMITS.maxCellLength) checkCell(this.field);
          continue;
        }
        this.quoted = false;
      }
      if (this.quoted) {
        if (ch === '"') this.quoteEnds = true;
        else {
          this.field += ch;
          if (this.field.length > CSV_LIMITS.maxCellLength) checkCell(this.field);
        }
        continue;
      }
      if (ch === '"' && this.field === '') this.quoted = true;
      else if (ch === ',') {
        this.row.push(this.field);
        this.field = '';
      } else if (ch === '\n' || ch === '\r') {
        this.row.push(this.field);
        this.field = '';
        this.endRow();
        this.afterCr = ch === '\r';
      } else {
        this.field += ch;
        if (this.field.length > CSV_LIMITS.maxCellLength) checkCell(this.field);
      }
    }
  }

  /** The model once every chunk is pushed. */
  end(): CsvModel {
    if (this.quoteEnds) {
      this.quoteEnds = false;
      this.quoted = false;
    }
    if (this.quoted) throw new CsvError('The CSV has an unterminated quoted field.');
    if (this.field !== '' || this.row.length) {
      this.row.push(this.field);
      this.field = '';
      this.endRow();
    }
    if (!this.header) throw new CsvError('The CSV is empty.');
    if (!this.bodyRows) throw new CsvError('The CSV has a header but no data rows.');
    return { columns: this.header.map((label, i) => ({ label, dataType: typeOf(this.fits[i]) })), rows: this.bodyRows };
  }

  private endRow(): void {
    const row = this.row;
    this.row = [];
    if (row.length === 1 && row[0] === '') return;
    checkRow(row, this.rows);
    this.rows++;
    if (!this.header) return this.takeHeader(row);
    if (row.length !== this.header.length) {
      throw new CsvError(`Row ${this.bodyRows + 2} has ${row.length} fields; the header has ${this.header.length}.`);
    }
    for (let i = 0; i < row.length; i++) fitValue(this.fits[i], row[i]);
    this.bodyRows++;
  }

  private takeHeader(row: string[]): void {
    const header = row.map((h) => h.trim());
    if (header.length > CSV_LIMITS.maxColumns) throw new CsvError(`The CSV has more than ${CSV_LIMITS.maxColumns} columns (CSV_MAX_COLUMNS).`);
    if (header.some((h) => h === '')) throw new CsvError('The header row has an empty column name: the first row must name every column.');
    const duplicate = header.find((h, i) => header.indexOf(h) !== i);
    if (duplicate) throw new CsvError(`The header row names "${duplicate}" twice.`);
    this.header = header;
    this.fits = header.map(() => ({ seen: false, count: true, quantity: true, boolean: true, temporal: true }));
  }
}
