// Report cells against spreadsheet formulas (issue 33, item 7; OWASP "CSV Injection"): a text cell
// starting with = + - @ tab or CR is written as text (a single quote before it, the cell quoted);
// numbers (whole minor units) are written as numbers, negative ones included. Properties over any
// text and any safe integer, and the cases a hostile value would try.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from '../../../src/modules/reports/csv.js';

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];

/** The value a CSV reader gets back from one field (RFC 4180). */
function readField(field: string): string {
  if (!field.startsWith('"')) {
    expect(field).not.toMatch(/[",\r\n]/);
    return field;
  }
  expect(field.endsWith('"')).toBe(true);
  const inner = field.slice(1, -1);
  expect(inner.replace(/""/g, '')).not.toContain('"');
  return inner.replace(/""/g, '"');
}

/** What a spreadsheet sees first in the cell: the first character of the value read back. */
const startsFormula = (value: string) => FORMULA_START.some((c) => value.startsWith(c));

describe('csvField', () => {
  it.each([
    ['=1+2', `"'=1+2"`],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+cmd|/C calc!A0', `"'+cmd|/C calc!A0"`],
    ['-2+3', `"'-2+3"`],
    ['-12.50', `"'-12.50"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['\r=1', `"'\r=1"`],
    ['cat_01', 'cat_01'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['', ''],
  ])('text %j → %s', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it.each([
    [-1250, '-1250'],
    [0, '0'],
    [1250, '1250'],
    [Number.MIN_SAFE_INTEGER, String(Number.MIN_SAFE_INTEGER)],
  ])('a number %d is written as it is, negative ones included', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it('refuses a number that is not whole minor units', () => {
    for (const value of [12.5, Number.NaN, Number.POSITIVE_INFINITY, 1e21]) expect(() => csvField(value)).toThrow(/whole minor units/);
  });

  it('null is an empty cell', () => {
    expect(csvField(null)).toBe('');
  });

  it('any text reads back as itself, or as itself behind a quote when it starts a formula; nothing read back starts one', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...FORMULA_START).chain((c) => fc.string().map((rest) => c + rest))), (value) => {
        const read = readField(csvField(value));
        expect(read).toBe(startsFormula(value) ? `'${value}` : value);
        expect(startsFormula(read)).toBe(false);
        if (startsFormula(value)) expect(csvField(value).startsWith(`"'`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('any safe integer is written as its digits, so a spreadsheet reads a number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        const field = csvField(value);
        expect(field).toMatch(/^-?\d+$/);
        expect(Number(field)).toBe(value);
      }),
    );
  });

  it('a record neutralises its text cells and keeps its numbers', () => {
    expect(csvRecord(['=cmd', -500, null, 'ok'])).toBe(`"'=cmd",-500,,ok\r\n`);
  });
});
