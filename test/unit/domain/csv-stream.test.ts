import { applyCsvLimits, CSV_LIMITS, modelFromCsv } from '../../../src/domain/csv';
import { CsvModelReader } from '../../../src/domain/csv-stream';

const defaults = { ...CSV_LIMITS };
afterEach(() => applyCsvLimits(defaults));

/** The reader's answer (model or error message) with `text` pushed in pieces of `size` characters. */
function streamed(text: string, size: number): unknown {
  const reader = new CsvModelReader();
  try {
    for (let at = 0; at < text.length; at += size) reader.push(text.slice(at, at + size));
    return reader.end();
  } catch (error) {
    return (error as Error).message;
  }
}

function whole(text: string): unknown {
  try {
    return modelFromCsv(text);
  } catch (error) {
    return (error as Error).message;
  }
}

const CASES: Array<[string, string]> = [
  ['types', 'id,price,ok,when,name\n1,2.5,yes,2024-01-02,a\n-3,1e3,No,2024-01-02T10:00Z,"b, c"\n'],
  ['CRLF, BOM, blank lines, no final newline', '\ufeffa,b\r\n\r\n1,"x""y"\r\n2,"multi\r\nline"'],
  ['empty cells and quoted empties', 'a,b,c\n,,""\n1,,x\n'],
  ['a quote after a closed quoted field', 'a\n"x"y"z\n'],
  ['empty', '\n\n'],
  ['header only', 'a,b\n'],
  ['empty header name', 'a,,c\n1,2,3\n'],
  ['duplicate header', 'a,b,a\n1,2,3\n'],
  ['ragged row', 'a,b\n1,2\n3\n'],
  ['unterminated quote', 'a\n"open\n'],
];

describe('CsvModelReader: modelFromCsv over chunks', () => {
  it.each(CASES)('%s: the same answer as the whole-text parse, whatever the chunk size', (_name, text) => {
    const expected = whole(text);
    for (const size of [1, 2, 3, 7, 64, text.length + 1]) expect(streamed(text, size)).toEqual(expected);
  });

  it('enforces CSV_MAX_ROWS, CSV_MAX_COLUMNS and CSV_MAX_CELL_LENGTH, naming each', () => {
    applyCsvLimits({ maxRows: 3, maxColumns: 2, maxCellLength: 5 });
    expect(streamed('a,b\n1,2\n3,4\n5,6\n', 4)).toBe('The CSV has more than 3 rows (CSV_MAX_ROWS).');
    expect(streamed('a,b,c\n1,2,3\n', 4)).toBe('The CSV has more than 2 columns (CSV_MAX_COLUMNS).');
    expect(streamed('a,b\n123456,2\n', 4)).toBe('A CSV cell is longer than 5 characters (CSV_MAX_CELL_LENGTH).');
    expect(streamed('a,b\n"12""3456",2\n', 4)).toBe('A CSV cell is longer than 5 characters (CSV_MAX_CELL_LENGTH).');
  });

  it('folds a large table row by row', () => {
    const reader = new CsvModelReader();
    reader.push('n,x\n');
    for (let i = 0; i < 200_000; i++) reader.push(`${i},${i / 2}\n`);
    expect(reader.end()).toEqual({
      columns: [
        { label: 'n', dataType: 'XdCount' },
        { label: 'x', dataType: 'XdQuantity' },
      ],
      rows: 200_000,
    });
  });
});
