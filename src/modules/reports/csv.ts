// CSV of RFC 4180: fields separated by commas, records ended by CRLF, a field quoted when it
// holds a comma, a quote, CR or LF (quotes doubled inside). A text cell that a spreadsheet would
// read as a formula (it starts with =, +, -, @, tab or CR) is neutralised as OWASP's "CSV
// Injection" page says: a single quote before it, and the cell quoted. Numbers are written as
// numbers and never neutralised: each is a whole number of minor units, so its text is an
// optional minus and digits ("-1250"), which a spreadsheet reads as a number, never a formula,
// and a quote before it would make a refund's negative amount text (docs/ledger.md, "Reports",
// says which column is which). Rows are written to a temporary file
// as they come, so a report of any size holds one batch of rows in memory; the file is then
// streamed to the store with its size known (S3 takes a stream only with its length).
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { once } from 'node:events';

export type Cell = string | number | null;

/** What starts a formula in Excel, LibreOffice and Google Sheets (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') {
    // Whole minor units only: a fraction or an exponent ("1e+21") would be another format.
    if (!Number.isSafeInteger(value)) throw new Error(`A report cell holds ${value}: numbers in reports are whole minor units.`);
    return String(value);
  }
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function csvRecord(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/** A CSV being written to a temporary file: the header, then rows; `rows` counts the data rows. */
export class CsvFile {
  rows = 0;
  private constructor(private readonly dir: string, readonly path: string, private readonly out: WriteStream) {}

  static async create(header: readonly string[]): Promise<CsvFile> {
    const dir = await mkdtemp(join(tmpdir(), 'report-'));
    const path = join(dir, 'report.csv');
    const file = new CsvFile(dir, path, createWriteStream(path, { flags: 'wx' }));
    await file.write(csvRecord(header));
    return file;
  }

  async row(cells: readonly Cell[]): Promise<void> {
    this.rows++;
    await this.write(csvRecord(cells));
  }

  /** Ends the file: its size and a stream of it. */
  async finish(): Promise<{ size: number; open: () => Readable }> {
    this.out.end();
    await once(this.out, 'finish');
    const { size } = await stat(this.path);
    return { size, open: () => createReadStream(this.path) };
  }

  async discard(): Promise<void> {
    this.out.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}
