import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../src/clock.js';
import { memberAddresses } from '../../../src/modules/accounts/access.js';
import { queueEmail } from '../../../src/modules/emails/outbox.js';
import { MAX_ATTEMPTS, sendQueuedEmails } from '../../../src/modules/emails/sender.js';
import { startTestApp, testConfig, type TestContext } from '../../helpers/harness.js';
import { expectError, ownerToken } from './manage-helpers.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives, or refuses recipients when told. */
async function startSmtp(options: { refuse?: boolean } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuse) return callback(new Error('Mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let ctx: TestContext;
let clock: ManualClock;
let owner: string;
const servers: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  clock = new ManualClock();
  ctx = await startTestApp({ clock });
  owner = await ownerToken(ctx);
});
afterEach(async () => {
  await ctx.db.query(`UPDATE emails SET status = 'sent' WHERE status = 'queued'`);
  while (servers.length) await servers.pop()!.close();
});
afterAll(() => ctx.close());

async function queue(subject: string, to = ['ops@example.com']) {
  return ctx.db.transaction((tx) => queueEmail(tx, ctx.workspaceId, to, subject, `Body of ${subject}`, new Date(clock.nowMs())));
}

describe('GET /manage/v1/emails', () => {
  it('lists the outbox newest first, page by page', async () => {
    const first = await queue('First');
    const second = await queue('Second', ['a@example.com', 'b@example.com', 'a@example.com']);
    const page = await ctx.request('/manage/v1/emails?limit=1', { key: owner });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_cursor: second.id });
    expect(page.body.data).toEqual([
      { object: 'email', id: second.id, to: ['a@example.com', 'b@example.com'], subject: 'Second', text: 'Body of Second', status: 'queued', created_at: new Date(clock.nowMs()).toISOString(), sent_at: null },
    ]);
    const next = await ctx.request(`/manage/v1/emails?limit=1&starting_after=${page.body.next_cursor}`, { key: owner });
    expect(next.body.data[0].id).toBe(first.id);
    expectError(await ctx.request('/manage/v1/emails?limit=0', { key: owner }), 400, 'invalid_request', 'limit');
    expectError(await ctx.request('/manage/v1/emails?starting_after=key_01jd0000000000000000000000', { key: owner }), 400, 'invalid_request', 'starting_after');
  });

  it('addresses every member of a workspace', async () => {
    expect(await memberAddresses(ctx.db, ctx.workspaceId)).toEqual([ctx.owner.email]);
  });
});

describe('sendQueuedEmails', () => {
  it('leaves emails queued when SMTP_URL is unset', async () => {
    const email = await queue('Stays');
    expect(await sendQueuedEmails({ ...ctx.services, clock })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    const [row] = await ctx.db.query<{ status: string }>('SELECT status FROM emails WHERE id = $1', [email.id]);
    expect(row!.status).toBe('queued');
  });

  it('sends through a real SMTP server and marks the emails sent', async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    const config = testConfig({ SMTP_URL: smtp.url });
    const a = await queue('Endpoint disabled', ['x@example.com', 'y@example.com']);
    const b = await queue('Another');
    expect(await sendQueuedEmails({ ...ctx.services, clock, config })).toEqual({ sent: 2, retrying: 0, failed: 0 });
    expect(smtp.received).toHaveLength(2);
    // A batch is sent concurrently: the messages may arrive in either order.
    const first = smtp.received.find((message) => message.raw.includes('Subject: Endpoint disabled'));
    expect(first).toMatchObject({ from: 'no-reply@127.0.0.1', to: ['x@example.com', 'y@example.com'] });
    expect(first!.raw).toContain('Subject: Endpoint disabled');
    expect(first!.raw).toContain('Body of Endpoint disabled');
    const list = await ctx.request('/manage/v1/emails?limit=2', { key: owner });
    expect(list.body.data.map((e: { id: string; status: string; sent_at: string }) => [e.id, e.status, e.sent_at])).toEqual([
      [b.id, 'sent', new Date(clock.nowMs()).toISOString()],
      [a.id, 'sent', new Date(clock.nowMs()).toISOString()],
    ]);
    expect(await sendQueuedEmails({ ...ctx.services, clock, config })).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it('sends each email once when two workers run at the same time', async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    const config = testConfig({ SMTP_URL: smtp.url });
    for (let i = 0; i < 6; i++) await queue(`Concurrent ${i}`);
    const reports = await Promise.all([sendQueuedEmails({ ...ctx.services, clock, config }), sendQueuedEmails({ ...ctx.services, clock, config })]);
    expect(reports[0]!.sent + reports[1]!.sent).toBe(6);
    expect(smtp.received).toHaveLength(6);
  });

  it('retries a refused email with backoff, then marks it failed', async () => {
    const smtp = await startSmtp({ refuse: true });
    servers.push(smtp);
    const config = testConfig({ SMTP_URL: smtp.url });
    const email = await queue('Refused');
    expect(await sendQueuedEmails({ ...ctx.services, clock, config })).toEqual({ sent: 0, retrying: 1, failed: 0 });
    // Not due again before its backoff (1 minute after the first failure).
    expect(await sendQueuedEmails({ ...ctx.services, clock, config })).toEqual({ sent: 0, retrying: 0, failed: 0 });
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      clock.advance(60_000 * 2 ** (attempt - 2));
      const report = await sendQueuedEmails({ ...ctx.services, clock, config });
      expect(report).toEqual(attempt === MAX_ATTEMPTS ? { sent: 0, retrying: 0, failed: 1 } : { sent: 0, retrying: 1, failed: 0 });
    }
    const [row] = await ctx.db.query<{ status: string; attempts: number; last_error: string }>(
      'SELECT status, attempts, last_error FROM emails WHERE id = $1',
      [email.id],
    );
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(row!.last_error).toContain('Mailbox unavailable');
  });
});
