// The real app on a real port with the built dashboard, and a Chromium driven by playwright-core.
// Every page a test visits is checked with axe (no serious or critical violation) and for
// Content-Security-Policy violations; screenshots go to test-results/screenshots/*.png, or to
// docs/dashboard/*.png with UPDATE_SCREENSHOTS=1.
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { sendQueuedEmails } from '../../src/modules/emails/sender.js';
import { DISPATCHER } from '../../src/modules/webhooks/wake.js';
import { startTestApp, type StartOptions, type TestContext } from '../helpers/harness.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The documentation's screenshots are rewritten only when asked (UPDATE_SCREENSHOTS=1), so a test
// run leaves the working tree as it found it; otherwise they go to test-results/ (git-ignored).
const SCREENSHOTS = new URL(process.env.UPDATE_SCREENSHOTS === '1' ? '../../docs/dashboard/' : '../../test-results/screenshots/', import.meta.url)
  .pathname;

export interface Dashboard {
  ctx: TestContext;
  base: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Problems the page reported: CSP violations, uncaught errors. */
  problems: string[];
  /** axe on the page as it is now; fails on a serious or critical violation, a CSP violation or an email in the URL. */
  checkA11y(name: string): Promise<void>;
  screenshot(name: string): Promise<void>;
  /** Where screenshot() writes (docs/dashboard/ or test-results/screenshots/), ending in a slash. */
  screenshotDir: string;
  /** Runs every due webhook attempt of the app and waits for them. */
  deliverWebhooks(): Promise<void>;
  /**
   * The newest link to `path` that reached `address` through the real SMTP server: the outbox is
   * sent first. Tests take emailed links from here, never from the API.
   */
  emailedLink(address: string, path: string): Promise<string>;
  /** A /v1 request with a secret key, as a platform's server makes it. */
  api(key: string, path: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives (the invitees' mailboxes). */
async function startMailbox(): Promise<{ received: Array<{ to: string[]; text: string }>; url: string; close(): Promise<void> }> {
  const received: Array<{ to: string[]; text: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        // Quoted-printable, as the sender may encode long lines: soft breaks and =XX undone.
        const text = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { received, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function startDashboard(options: StartOptions = {}): Promise<Dashboard> {
  const mailbox = await startMailbox();
  const ctx = await startTestApp({ ...options, env: { SIGNUP: 'open', SMTP_URL: mailbox.url, ...options.env } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 }, baseURL: base });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content.Security.Policy|Refused to/i.test(text)) problems.push(`CSP: ${text}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    ctx,
    base,
    browser,
    context,
    page,
    problems,
    screenshotDir: SCREENSHOTS,
    async checkA11y(name) {
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      const described = bad.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      expect(described, `axe on ${name}`).toEqual([]);
      expect(problems, `CSP or script errors on ${name}`).toEqual([]);
      // Nothing personal in URLs: ids only, never an email address.
      expect(decodeURIComponent(page.url()), `URL of ${name}`).not.toMatch(/@|%40/);
    },
    async screenshot(name) {
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: false });
    },
    async deliverWebhooks() {
      await ctx.services.background.loop(DISPATCHER).runDue(null, { wait: true });
    },
    async emailedLink(address, path) {
      await sendQueuedEmails(ctx.services);
      const escaped = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const pattern = new RegExp(`https?://\\S+${escaped}#token=[A-Za-z0-9_]+`);
      for (const message of [...mailbox.received].reverse()) {
        const link = message.to.includes(address.toLowerCase()) ? pattern.exec(message.text)?.[0] : undefined;
        if (link) return link;
      }
      throw new Error(`no ${path} link reached ${address} (${mailbox.received.length} messages)`);
    },
    async api(key, path, init = {}) {
      const res = await fetch(`${base}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await browser.close().catch(() => undefined);
      await ctx.close();
      await mailbox.close();
    },
  };
}

/** Clicks a link of the left navigation. */
export async function openSection(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}
