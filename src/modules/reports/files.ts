// GET /report_files/{token}: a report's CSV from the local store (STORAGE=local). The token is
// signed like media links (src/adapters/storage/url-tokens.ts, purpose "report") and checked on
// the mode's clock; on S3 the link is S3's own presigned address and never comes here.
import type { Readable } from 'node:stream';
import { DomainError, errors } from '../../errors.js';
import { modeNow } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import { LocalStorage } from '../../adapters/storage/local.js';
import { verifyToken } from '../../adapters/storage/url-tokens.js';
import { selectReport } from './queries.js';
import { REPORT_CONTENT_TYPE } from './serialize.js';

export interface ReportFileResponse {
  headers: Record<string, string>;
  body: Readable;
}

export async function serveReportFile(ctx: ServiceContext, text: string): Promise<ReportFileResponse> {
  const storage = ctx.hooks.storage;
  if (!(storage instanceof LocalStorage)) {
    throw new DomainError('resource_missing', 'Report files are kept in S3 here: links go to the addresses S3 signed.');
  }
  const token = verifyToken(storage.signingKey, 'report', text);
  if (!token) throw errors.forbidden('url_signature_invalid', 'The address is not one this service signed, or it was altered.');
  const now = await modeNow(ctx.db, ctx.clock, token.scope);
  if (token.expiresAt <= now) {
    throw errors.forbidden('url_expired', `The link expired at ${token.expiresAt.toISOString()}; read the report again for a fresh url.`);
  }
  const report = await selectReport(ctx.db, token.scope, token.mediaId);
  if (!report || report.status !== 'succeeded' || report.file_key === null) throw errors.missing('report', token.mediaId);
  const size = await storage.sizeOf(report.file_key);
  if (size === null) throw errors.missing('report', token.mediaId);
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
