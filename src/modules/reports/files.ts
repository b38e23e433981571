// GET /report_files/{token}: a report's CSV from the local store (STORAGE=local). The token is
// signed like media links (purpose "report") and checked on the mode's clock by the local store
// (the storage hook's `served`); on S3 the link is S3's own presigned address and never comes here.
import type { Readable } from 'node:stream';
import { DomainError, errors } from '../../errors.js';
import type { ServiceContext } from '../../contracts/context.js';
import { selectReport } from './queries.js';
import { REPORT_CONTENT_TYPE } from './serialize.js';

export interface ReportFileResponse {
  headers: Record<string, string>;
  body: Readable;
}

export async function serveReportFile(ctx: ServiceContext, text: string): Promise<ReportFileResponse> {
  const storage = ctx.hooks.storage.served;
  if (!storage) {
    throw new DomainError('resource_missing', 'Report files are kept in S3 here: links go to the addresses S3 signed.');
  }
  const token = await storage.checkToken(ctx.db, ctx.clock, 'report', text);
  const report = await selectReport(ctx.db, token.scope, token.id);
  if (!report || report.status !== 'succeeded' || report.file_key === null) throw errors.missing('report', token.id);
  const size = await storage.sizeOf(report.file_key);
  if (size === null) throw errors.missing('report', token.id);
  return {
    headers: {
      'content-type': REPORT_CONTENT_TYPE,
      'content-length': String(size),
      'content-disposition': `attachment; filename="${report.id}-${report.type}.csv"`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
    body: storage.read(report.file_key, 0, Math.max(0, size - 1)),
  };
}
