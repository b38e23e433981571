// The email machine's table (src/modules/emails/machine.ts) is what the email.send job does: a
// sent email moves queued → sent, a refused attempt leaves it queued (retry) until the last one
// moves it to failed; each move the job made is a row of the table, every row taken. A sent or
// failed email is never sent again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/clock.js';
import { rowOf } from '../../../src/domain/state-machine.js';
import { EMAIL_MACHINE, type EmailOperation, type EmailStatus } from '../../../src/modules/emails/machine.js';
import { queueEmail } from '../../../src/modules/emails/outbox.js';
import { MAX_ATTEMPTS, sendQueuedEmails, type MailTransport } from '../../../src/modules/emails/sender.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
let clock: ManualClock;
beforeAll(async () => {
  clock = new ManualClock();
  ctx = await startTestApp({ clock });
  // The emails the set-up queued are not this test's.
  await ctx.db.query(`UPDATE emails SET status = 'sent' WHERE status = 'queued'`);
});
afterAll(() => ctx.close());

const accepting: MailTransport = { sendMail: () => Promise.resolve({}) } as unknown as MailTransport;
const refusing: MailTransport = { sendMail: () => Promise.reject(new Error('Mailbox unavailable')) } as unknown as MailTransport;

async function queue(subject: string): Promise<string> {
  const email = await ctx.db.transaction((tx) => queueEmail(tx, ctx.workspaceId, ['ops@example.com'], subject, 'Body', new Date(clock.nowMs())));
  return email.id;
}

async function statusOf(id: string): Promise<EmailStatus> {
  const [row] = await ctx.db.query<{ status: EmailStatus }>('SELECT status FROM emails WHERE id = $1', [id]);
  return row!.status;
}

describe('the email machine', () => {
  it('holds the moves the email.send job makes, and only those', async () => {
    const moves = new Set<string>();
    const record = (from: EmailStatus, operation: EmailOperation, to: EmailStatus) => {
      expect(rowOf(EMAIL_MACHINE, from, operation)?.to, `${from} ${operation}`).toBe(to);
      moves.add(`${from} ${operation} ${to}`);
    };

    const sent = await queue('Sent');
    expect(await sendQueuedEmails({ ...ctx.services, clock }, accepting)).toEqual({ sent: 1, retrying: 0, failed: 0 });
    record('queued', 'send', await statusOf(sent));

    const refused = await queue('Refused');
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const report = await sendQueuedEmails({ ...ctx.services, clock }, refusing);
      record('queued', attempt === MAX_ATTEMPTS ? 'fail' : 'retry', await statusOf(refused));
      expect(report.retrying + report.failed).toBe(1);
      clock.advance(60_000 * 2 ** (attempt - 1));
    }
    expect(await statusOf(refused)).toBe('failed');

    expect([...moves].sort()).toEqual(EMAIL_MACHINE.rows.flatMap((row) => row.from.map((from) => `${from} ${row.operation} ${row.to}`)).sort());
  });

  it('has no move out of a sent or failed email: neither is sent again', async () => {
    for (const state of ['sent', 'failed'] as const) {
      for (const operation of ['send', 'retry', 'fail'] as const) expect(rowOf(EMAIL_MACHINE, state, operation)).toBeUndefined();
    }
    const id = await queue('Marked by hand');
    await ctx.db.query(`UPDATE emails SET status = 'failed' WHERE id = $1`, [id]);
    let calls = 0;
    const counting = { sendMail: () => ((calls += 1), Promise.resolve({})) } as unknown as MailTransport;
    await sendQueuedEmails({ ...ctx.services, clock }, counting);
    expect(calls).toBe(0);
    expect(await statusOf(id)).toBe('failed');
  });
});
