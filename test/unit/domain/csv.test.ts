import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, toCsv } from '../../../src/kernel/domain/csv.js';
import { parseCsv } from '../../support/csv.js';

describe('CSV (RFC 4180, formula injection)', () => {
  it('quotes commas, quotes, CR and LF, doubling inner quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded ')).toBe('" padded "');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    for (const evil of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(evil).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvCell(-5)).toBe('-5'); // numbers carry no formula
  });

  it('writes CRLF lines after a BOM, and reads back to the same cells', () => {
    const rows = [['<!channel> & Co', 'a@b.com', 'x, "y"\nz', 7, null]];
    const text = toCsv(['n', 'e', 't', 'p', 'c'], rows);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual([
      ['n', 'e', 't', 'p', 'c'],
      ['<!channel> & Co', 'a@b.com', 'x, "y"\nz', '7', ''],
    ]);
  });
});
