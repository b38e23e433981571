// What a report builder gets and does: it writes its rows to the CSV file as it reads them.
import type { JobContext } from '../../../contracts/background.js';
import type { Scope } from '../../../scope.js';
import type { CsvFile } from '../csv.js';
import type { ReportRow } from '../queries.js';

export interface BuildInput {
  ctx: JobContext;
  scope: Scope;
  report: ReportRow;
  /** The marketplace currency: the currency of a balance row when no line names one. */
  currency: string;
}

export interface ReportBuilder {
  header: readonly string[];
  build(input: BuildInput, csv: CsvFile): Promise<void>;
}
