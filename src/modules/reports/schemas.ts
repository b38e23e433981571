// The report record, and the body and query of the report operations. Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Nullable, NullableTimestamp, StringEnum, TimeInput, Timestamp } from '../../http/schemas.js';

export const REPORT_TYPES = ['seller_statement', 'platform_fees', 'balance_summary', 'reconciliation'] as const;
export const ReportType = StringEnum([...REPORT_TYPES]);
export type ReportType = Static<typeof ReportType>;

export const ReportStatus = StringEnum(['pending', 'succeeded', 'failed']);
export type ReportStatus = Static<typeof ReportStatus>;

/** The longest interval a report may cover (docs/ledger.md, "Reports"): a year and a day. */
export const MAX_INTERVAL_DAYS = 366;


export const ReportFile = Type.Object({
  url: Type.String({ description: 'A signed link to the CSV, valid one to two hours; read the report again for a fresh one.' }),
  expires_at: Timestamp,
  size: Type.Integer({ description: 'Bytes.' }),
  content_type: Type.Literal('text/csv; charset=utf-8'),
  rows: Type.Integer({ description: 'Data rows, the header row not counted.' }),
});

export const Report = Type.Object(
  {
    object: Type.Literal('report'),
    id: Type.String(),
    type: ReportType,
    interval_start: Type.String({ format: 'date-time', description: 'The start of the interval (included), ISO 8601.' }),
    interval_end: Type.String({ format: 'date-time', description: 'The end of the interval (excluded), ISO 8601.' }),
    seller: Nullable(Type.String()),
    status: ReportStatus,
    failure: Nullable(Type.String({ description: 'Why it failed (status failed).' })),
    file: Nullable(ReportFile),
    created_at: Timestamp,
    completed_at: NullableTimestamp,
  },
  {
    examples: [
      {
        object: 'report',
        id: 'rpt_01jd2b7v8k0000000000000000',
        type: 'balance_summary',
        interval_start: '2026-11-01T00:00:00.000Z',
        interval_end: '2026-12-01T00:00:00.000Z',
        seller: null,
        status: 'succeeded',
        failure: null,
        file: { url: 'https://api.example.com/report_files/…', expires_at: '2026-11-21T11:00:00.000Z', size: 2048, content_type: 'text/csv; charset=utf-8', rows: 12 },
        created_at: '2026-11-21T09:30:00.000Z',
        completed_at: '2026-11-21T09:30:02.000Z',
      },
    ],
  },
);
export type Report = Static<typeof Report>;

const CreateReportFields = Body({
  type: ReportType,
  interval_start: TimeInput('The start of the interval, a whole second.'),
  interval_end: TimeInput('After interval_start, at most 366 days after it, a whole second. The interval is [start, end).'),
  seller: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required for seller_statement, refused for the other types.' })),
});
export const CreateReportBody = {
  ...CreateReportFields,
  examples: [
    { type: 'seller_statement', interval_start: '2026-11-01T00:00:00.000Z', interval_end: '2026-12-01T00:00:00.000Z', seller: 'sel_01jd2b7v8k0000000000000000' },
    { type: 'balance_summary', interval_start: 1793491200, interval_end: 1796083200 },
  ],
};
export type CreateReportBody = Static<typeof CreateReportBody>;

export const ListReportsQuery = ListQuery({ type: Type.Optional(ReportType), status: Type.Optional(ReportStatus) });
export type ListReportsQuery = Static<typeof ListReportsQuery>;

export const ReportList = ListOf(Report);

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false });
