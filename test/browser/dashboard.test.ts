// The dashboard end to end in Chromium, as an operator uses it: sign up, create a marketplace,
// switch modes, change a setting, keys, a webhook endpoint with its deliveries, an order and its
// transitions, erasing a buyer, confirming the address and inviting a member from the links the
// real SMTP server received, that member, a viewer, refused a write, and an existing account
// accepting an invitation signed in. axe runs on every page visited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceWithOwner } from '../../src/modules/accounts/operations.js';
import { startReceiver, type Receiver } from '../modules/webhooks/helpers.js';
import { openSection, startDashboard, type Dashboard } from './helpers.js';

const email = `operator-${Date.now().toString(36)}@example.com`;
const password = 'correct horse battery staple';
const viewerEmail = `viewer-${Date.now().toString(36)}@example.com`;

describe('the dashboard in a browser', () => {
  let d: Dashboard;
  let receiver: Receiver;
  let secretKey = '';
  let marketplaceUrl = '';

  beforeAll(async () => {
    d = await startDashboard();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await d?.close();
  });

  /** Runs the due webhook attempts until the receiver has had `count` requests (the app's own
   *  dispatcher may hold a delivery a moment, so one run is not always the one that sends it). */
  async function deliveredCount(count: number): Promise<void> {
    await expect
      .poll(
        async () => {
          await d.deliverWebhooks();
          return receiver.received.length;
        },
        { timeout: 15_000, interval: 200 },
      )
      .toBe(count);
  }

  it('signs up and lands on creating a marketplace', async () => {
    const { page } = d;
    await page.goto('/dashboard/');
    await page.waitForURL('**/dashboard/login');
    await page.getByRole('heading', { name: 'Log in to your account' }).waitFor();
    await d.checkA11y('log in');
    await d.screenshot('login');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByLabel('Workspace name').fill('Acme Markets');
    await d.checkA11y('sign up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/dashboard/marketplaces/new');
    expect(page.url()).not.toContain('@');
    await page.getByRole('heading', { name: 'New marketplace' }).waitFor();
    await d.checkA11y('new marketplace');
  });

  it('creates a marketplace and shows its test keys once', async () => {
    const { page } = d;
    await page.getByLabel('Name').fill('Vintage Finds');
    await page.getByLabel('Currency').fill('USD');
    await page.getByRole('button', { name: 'Create marketplace' }).click();
    await page.getByRole('heading', { name: 'Vintage Finds is ready' }).waitFor();
    secretKey = (await page.locator('[data-secret]').first().textContent()) ?? '';
    expect(secretKey).toMatch(/^sk_test_/);
    expect(await page.locator('[data-secret]').nth(2).textContent()).toMatch(/^sk_live_/);
    await d.checkA11y('marketplace created');
    await page.getByRole('button', { name: 'Go to the marketplace' }).click();
    await page.getByText('USD · Test mode').waitFor();
    marketplaceUrl = new URL(page.url()).pathname.replace(/\/test$/, '');
    expect(marketplaceUrl).toMatch(/^\/dashboard\/m\/mkt_/);
    await d.checkA11y('overview');
    await d.screenshot('overview');
  });

  it('asks to confirm the address, sends the link again, and confirms it from the emailed link', async () => {
    const { page } = d;
    await page.getByText(`Confirm your email address: we sent a link to ${email}.`).waitFor();
    await d.checkA11y('unverified banner');
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await page.getByText(`A new confirmation link is on its way to ${email}.`).waitFor();
    const url = new URL(await d.emailedLink(email, '/dashboard/verify-email'));
    await page.goto(`${url.pathname}${url.hash}`);
    await page.getByRole('heading', { name: 'Confirm your email address' }).waitFor();
    await d.checkA11y('verify email');
    await page.getByRole('button', { name: 'Confirm email address' }).click();
    await page.getByText('Your email address is confirmed.').waitFor();
    expect(page.url()).not.toContain('token');
    await page.goto(`${marketplaceUrl}/test`);
    await page.getByText('USD · Test mode').waitFor();
    expect(await page.getByText('Confirm your email address').count()).toBe(0);
  });

  it('switches between test and live mode', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Live mode' }).click();
    await page.waitForURL(`**${marketplaceUrl}/live`);
    await page.getByText('USD · Live mode').waitFor();
    expect(await page.getByRole('button', { name: 'Live mode' }).getAttribute('aria-pressed')).toBe('true');
    await expect(page.getByRole('link', { name: 'Test clock' }).count()).resolves.toBe(0);
    await d.checkA11y('overview, live');
    await page.getByRole('button', { name: 'Test mode' }).click();
    await page.getByText('USD · Test mode').waitFor();
    await openSection(page, 'Test clock');
    await page.getByText('Ahead of real time').waitFor();
    await d.checkA11y('test clock');
  });

  it('changes a setting, seen by GET /v1/marketplace, and shows the API error next to its field', async () => {
    const { page } = d;
    await openSection(page, 'Settings');
    await page.getByLabel('Platform fee (basis points)').fill('250');
    await page.getByLabel('Prohibited words').fill('replica\ncounterfeit');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const marketplace = await d.api(secretKey, '/v1/marketplace');
    expect(marketplace.status).toBe(200);
    expect(marketplace.body.settings.platform_fee.percent_bps).toBe(250);
    expect(marketplace.body.settings.prohibited_words).toEqual(['replica', 'counterfeit']);
    await d.checkA11y('settings');
    await d.screenshot('settings');

    const field = page.getByLabel('Payment window (seconds)');
    await field.fill('-5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await d.checkA11y('settings with an error');
    expect((await d.api(secretKey, '/v1/marketplace')).body.settings.payment_window_seconds).toBe(1800);
  });

  it('creates a key, shows its secret once, and revokes it', async () => {
    const { page } = d;
    await openSection(page, 'API keys');
    await page.getByLabel('Name (optional)').fill('Checkout server');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.locator('[data-secret]');
    await shown.waitFor();
    const key = (await shown.textContent()) ?? '';
    expect(key).toMatch(/^sk_test_/);
    expect((await d.api(key, '/v1/marketplace')).status).toBe(200);
    await d.checkA11y('api keys');
    await d.screenshot('api-keys');
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Checkout server' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await d.checkA11y('revoke dialog');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('revoked').waitFor();
    expect((await d.api(key, '/v1/marketplace')).status).toBe(401);
  });

  it('rolls a key: the new secret is shown once and the old key works until its expiry', async () => {
    const { page } = d;
    await page.getByLabel('Name (optional)').fill('Rolling');
    await page.getByRole('button', { name: 'Create key' }).click();
    const old = (await page.locator('[data-secret]').textContent()) ?? '';
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('When rolling, the old key keeps working for').selectOption('3600');
    const row = page.getByRole('row').filter({ hasText: 'Rolling' }).filter({ hasText: 'active' });
    await row.getByRole('button', { name: 'Roll' }).click();
    await page.getByRole('button', { name: 'Roll key' }).click();
    await page.getByText('Rolled key').waitFor();
    const rolled = (await page.locator('[data-secret]').textContent()) ?? '';
    expect(rolled).toMatch(/^sk_test_/);
    expect(rolled).not.toBe(old);
    expect((await d.api(rolled, '/v1/marketplace')).status).toBe(200);
    expect((await d.api(old, '/v1/marketplace')).status).toBe(200);
    await page.getByRole('row').filter({ hasText: 'expiring' }).first().waitFor();
  });

  it('connects the simulated processor and advances the test clock', async () => {
    const { page } = d;
    await openSection(page, 'Payments processor');
    await page.getByLabel('Provider').selectOption('simulated');
    await page.getByRole('button', { name: 'Save connection' }).click();
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    await d.checkA11y('processor');
    // Read back on a later visit (GET of the connection), not only from the save's answer.
    await openSection(page, 'Settings');
    await openSection(page, 'Payments processor');
    await page.getByRole('heading', { name: 'Connected' }).waitFor();
    await openSection(page, 'Test clock');
    await page.getByLabel('Advance by').selectOption('3600');
    await page.getByRole('button', { name: 'Advance clock' }).click();
    await page.getByText('3600 seconds').waitFor();
    await d.checkA11y('test clock advanced');
  });

  it('creates a webhook endpoint, shows a delivery with its attempt log, and replays it', async () => {
    const { page } = d;
    await openSection(page, 'Webhooks');
    await page.getByLabel('Endpoint URL').fill(receiver.url('/hook'));
    await page.getByLabel('Events to send').fill('seller.created');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.locator('[data-secret]').textContent()).toMatch(/^whsec_/);
    await d.checkA11y('webhooks');

    const seller = await d.api(secretKey, '/v1/sellers', { body: { external_id: 'seller-1', name: 'Ada Lovelace', email: 'ada@example.com' } });
    expect(seller.status).toBe(201);
    await deliveredCount(1);

    await page.getByRole('link', { name: receiver.url('/hook') }).click();
    await page.getByRole('link', { name: 'seller.created' }).first().waitFor();
    await d.checkA11y('webhook endpoint');
    await d.screenshot('webhook-endpoint');
    await page.getByRole('link', { name: 'seller.created' }).first().click();
    await page.getByRole('heading', { name: 'Attempt log' }).waitFor();
    const attempt = page.locator('tr.attempt').first();
    await expect.poll(() => attempt.textContent()).toContain('200');
    await page.getByRole('heading', { name: 'Request' }).waitFor();
    expect(await page.getByLabel('Response').textContent()).toContain('ok');
    await d.checkA11y('delivery');
    await d.screenshot('delivery');

    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByText('Replay of').waitFor();
    await deliveredCount(2);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => page.locator('tr.attempt').count()).toBe(1);
    await page.locator('.badge', { hasText: 'succeeded' }).first().waitFor();
  });

  it('edits, disables and enables an endpoint, replays its failed deliveries, rotates its secret, deletes it', async () => {
    const { page } = d;
    await openSection(page, 'Webhooks');
    await page.getByRole('link', { name: receiver.url('/hook') }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Description').fill('Order sync');
    // A rate out of bounds is refused by the API, named on its field.
    await page.getByLabel('Rate limit per second (optional)').fill('5000');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.field-error').first().waitFor();
    await page.getByLabel('Rate limit per second (optional)').fill('20');
    await page.getByLabel('Ordering').selectOption('per_object');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Endpoint updated.').waitFor();
    await page.getByText('Order sync').first().waitFor();
    await page.getByText('20 per second').waitFor();
    await page.getByText('Per object', { exact: true }).waitFor();

    // The receiver fails: the delivery waits for a retry, and disabling the endpoint fails it.
    receiver.on('/hook', (_req, res) => res.writeHead(500).end('down'));
    const beforeFailure = receiver.received.length;
    expect((await d.api(secretKey, '/v1/sellers', { body: { external_id: 'seller-2', name: 'Charles Babbage' } })).status).toBe(201);
    await deliveredCount(beforeFailure + 1);
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    await page.locator('.badge', { hasText: 'disabled' }).first().waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('table', { name: 'Deliveries' }).locator('.badge', { hasText: 'failed' }).first().waitFor();
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Disable' }).waitFor();

    // Fixed: every failed delivery of the endpoint is replayed, and arrives.
    receiver.on('/hook', (_req, res) => res.writeHead(200).end('ok'));
    const before = receiver.received.length;
    const replays: string[] = [];
    const recordReplay = (request: { url(): string; method(): string }) => {
      const path = new URL(request.url()).pathname;
      if (path.includes('/replay')) replays.push(`${request.method()} ${path.replace(/whe_\w+/, 'whe_…')}`);
    };
    page.on('request', recordReplay);
    await page.getByRole('button', { name: 'Replay failed' }).click();
    await page.getByRole('button', { name: 'Replay failed deliveries' }).click();
    await page.getByText('1 failed delivery replayed.').waitFor();
    page.off('request', recordReplay);
    // One request did it, on the server.
    expect(replays).toEqual(['POST /v1/webhook_endpoints/whe_…/replay_failed']);
    await deliveredCount(before + 1);
    expect(receiver.received.at(-1)!.body).toContain('Charles Babbage');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    expect(await page.locator('[data-secret]').textContent()).toMatch(/^whsec_/);
    await d.checkA11y('webhook endpoint after changes');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhook endpoints').waitFor();
    expect((await d.api(secretKey, '/v1/webhook_endpoints')).body.data).toEqual([]);
  });

  it('lists events by type with a JSON view', async () => {
    const { page } = d;
    await openSection(page, 'Events');
    await page.getByLabel('Event type').fill('seller.created');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: 'seller.created' }).first().click();
    await page.getByLabel('Event JSON').waitFor();
    expect(await page.getByLabel('Event JSON').textContent()).toContain('"type": "seller.created"');
    await d.checkA11y('event');
  });

  it('finds an order and shows its transitions', async () => {
    const { page } = d;
    const sellers = await d.api(secretKey, '/v1/sellers?external_id=seller-1');
    const seller = sellers.body.data[0].id as string;
    const listing = await d.api(secretKey, '/v1/listings', { body: { seller, title: 'Walnut desk', price: { amount: 45000, currency: 'USD' }, quantity: 2 } });
    expect(listing.status).toBe(201);
    expect((await d.api(secretKey, `/v1/listings/${listing.body.id}/publish`, { method: 'POST' })).status).toBe(200);
    const buyer = await d.api(secretKey, '/v1/buyers', { body: { external_id: 'buyer-1', name: 'Grace Hopper', email: 'grace@example.com' } });
    const order = await d.api(secretKey, '/v1/orders', { body: { buyer: buyer.body.id, listing: listing.body.id } });
    expect(order.status).toBe(201);

    await openSection(page, 'Orders');
    await page.getByRole('link', { name: order.body.id }).waitFor();
    await d.checkA11y('orders');
    await page.getByLabel('Find an order by ID').fill(order.body.id);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'Transitions' }).waitFor();
    const transitions = page.getByRole('table', { name: 'Transitions' });
    await transitions.getByText('create').waitFor();
    expect(await transitions.textContent()).toContain('committed');
    await d.checkA11y('order');
    await d.screenshot('order');
  });

  it('erases a buyer after a confirmation', async () => {
    const { page } = d;
    await openSection(page, 'Buyers');
    await page.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByText('grace@example.com').waitFor();
    await page.getByRole('button', { name: 'Erase personal data' }).click();
    await page.getByRole('dialog').getByText('cannot be undone').waitFor();
    await d.checkA11y('erase dialog');
    await page.getByRole('button', { name: 'Erase buyer' }).click();
    await page.locator('.badge', { hasText: 'erased' }).first().waitFor();
    const buyers = await d.api(secretKey, '/v1/buyers');
    expect(buyers.body.data[0].erased_at).not.toBeNull();
    expect(buyers.body.data[0].email).toBeNull();
    await d.checkA11y('erased buyer');
  });

  it('resolves a flag', async () => {
    const { page } = d;
    const listings = await d.api(secretKey, '/v1/listings');
    const flag = await d.api(secretKey, '/v1/flags', { body: { target_type: 'listing', target: listings.body.data[0].id, reason: 'prohibited_item', description: 'Looks like a replica.' } });
    expect(flag.status).toBe(201);
    await openSection(page, 'Flags');
    const row = page.getByRole('row').filter({ hasText: 'Looks like a replica.' });
    await row.getByRole('button', { name: 'Resolve' }).click();
    await page.getByLabel('Action').selectOption('dismiss');
    await page.getByLabel('Note (kept in the moderation log)').fill('A genuine antique.');
    await d.checkA11y('resolve flag');
    await page.getByRole('button', { name: 'Resolve flag' }).click();
    await row.locator('.badge', { hasText: 'resolved' }).waitFor();
    expect((await d.api(secretKey, `/v1/flags/${flag.body.id}`)).body.status).toBe('resolved');
    await d.checkA11y('flags');
  });

  it('visits the other pages without an accessibility problem', async () => {
    const { page } = d;
    for (const [section, marker] of [
      ['Listings', 'Walnut desk'],
      ['Sellers', 'Ada Lovelace'],
      ['Moderation log', 'No moderation actions'],
      ['Payments processor', 'Connect a processor'],
    ] as const) {
      await openSection(page, section);
      await page.getByText(marker).first().waitFor();
      await d.checkA11y(section);
    }
    await openSection(page, 'Sellers');
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Suspend' }).waitFor();
    await d.checkA11y('seller');
    await page.getByLabel('Reason').fill('Counterfeit goods reported.');
    await page.getByRole('button', { name: 'Suspend seller' }).click();
    await page.locator('.badge', { hasText: 'suspended' }).first().waitFor();
    expect((await d.api(secretKey, '/v1/sellers?external_id=seller-1')).body.data[0].status).toBe('suspended');
    await page.getByRole('button', { name: 'Unsuspend' }).click();
    await page.getByRole('heading', { name: 'Suspend' }).waitFor();
    await page.getByRole('link', { name: 'Walnut desk' }).click();
    await page.getByLabel('Listing JSON').waitFor();
    await d.checkA11y('listing');
    await openSection(page, 'Moderation log');
    await page.getByText('suspend seller').first().waitFor();
  });

  it('creates a second workspace and switches back', async () => {
    const { page } = d;
    await openSection(page, 'New workspace');
    await page.getByLabel('Workspace name').fill('Second team');
    await d.checkA11y('new workspace');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByText('In the workspace Second team.').waitFor();
    await page.getByText('No marketplaces yet').waitFor();
    await page.getByLabel('Workspace', { exact: true }).selectOption({ label: 'Acme Markets' });
    await page.getByText('In the workspace Acme Markets.').waitFor();
    await page.getByRole('link', { name: 'Vintage Finds' }).waitFor();
  });

  it('invites a member, who accepts from the emailed link and, as a viewer, is refused a write', async () => {
    const { page } = d;
    await openSection(page, 'Members');
    await page.getByLabel('Email').fill(viewerEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${viewerEmail}.`).waitFor();
    await d.checkA11y('members');
    await d.screenshot('members');

    await openSection(page, 'Email outbox');
    const invitation = page.getByRole('row').filter({ hasText: viewerEmail });
    await invitation.getByRole('button').click();
    // The outbox shows the email without its secret link; the invitee's copy (the body the
    // service sends, in the outbox table) holds it.
    expect(await invitation.locator('pre').textContent()).toContain('[invitation link, sent only to the invitee]');
    await d.checkA11y('email outbox');
    await d.screenshot('email-outbox');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/dashboard/login');
    const url = new URL(await d.emailedLink(viewerEmail, '/dashboard/accept-invitation'));
    await page.goto(`${url.pathname}${url.hash}`);
    await page.getByRole('heading', { name: 'Join the workspace' }).waitFor();
    await d.checkA11y('accept invitation');
    await page.getByLabel('Password', { exact: true }).fill('viewer password 123');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    await page.getByText('viewer', { exact: true }).waitFor();

    // A viewer sees no write controls …
    await page.getByRole('link', { name: 'Vintage Finds' }).click();
    await openSection(page, 'Settings');
    await page.getByLabel('Platform fee (basis points)').waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await openSection(page, 'API keys');
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await d.checkA11y('api keys as a viewer');

    // … and the server refuses a write sent with the viewer's own session and CSRF token.
    const marketplace = marketplaceUrl.split('/')[3]!;
    const refused = await page.evaluate(async (mkt) => {
      const session = (await (await fetch('/manage/v1/session')).json()) as { csrf_token: string };
      const res = await fetch('/v1/sellers', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrf_token, 'dashboard-marketplace': mkt, 'dashboard-mode': 'test' },
        body: JSON.stringify({ external_id: 'not-allowed' }),
      });
      return { status: res.status, body: (await res.json()) as { error: { code: string } } };
    }, marketplace);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('permission_denied');
  });

  it('logs the owner back in, who changes the role of the member and removes them', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/dashboard/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    await openSection(page, 'Members');
    await page.getByLabel(`Role of ${viewerEmail}`).selectOption('developer');
    await page.getByText('Role changed.').waitFor();
    const row = page.getByRole('row').filter({ hasText: viewerEmail });
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Remove member' }).click();
    await page.getByText('Member removed.').waitFor();
    await expect.poll(() => page.getByRole('row').filter({ hasText: viewerEmail }).count()).toBe(0);
  });

  it('resets a forgotten password from the emailed link', async () => {
    const { page } = d;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/dashboard/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('we sent it a link').waitFor();
    await d.checkA11y('forgot password');
    const url = new URL(await d.emailedLink(email, '/dashboard/reset-password'));
    await page.goto(`${url.pathname}${url.hash}`);
    await page.getByLabel('New password').fill('a brand new password');
    await d.checkA11y('reset password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password was changed.').waitFor();
    expect(page.url()).not.toContain('token');
    await page.getByRole('link', { name: 'Back to log in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a brand new password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
  });

  it('lets an existing account accept an invitation only signed in, through the emailed link', async () => {
    const { page } = d;
    const otherEmail = `existing-${Date.now().toString(36)}@example.com`;
    await createWorkspaceWithOwner(d.ctx.db, d.ctx.services.clock, { email: otherEmail, password: 'their own password', workspaceName: 'Their shop' });
    await openSection(page, 'Members');
    await page.getByLabel('Email').fill(otherEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('developer');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${otherEmail}.`).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/dashboard/login');

    const url = new URL(await d.emailedLink(otherEmail, '/dashboard/accept-invitation'));
    await page.goto(`${url.pathname}${url.hash}`);
    await page.getByRole('heading', { name: 'Already have an account?' }).waitFor();
    // The link alone cannot set the password of an account that has one.
    await page.getByLabel('Password', { exact: true }).fill('chosen through the link');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByText('This invitation is for an existing account').waitFor();
    await page.getByLabel('Email').fill(otherEmail);
    await page.getByLabel('Your password').fill('their own password');
    await d.checkA11y('accept invitation, existing account');
    await page.getByRole('button', { name: 'Log in and accept' }).click();
    await page.getByRole('heading', { name: 'Marketplaces' }).waitFor();
    const workspaces = await page.getByLabel('Workspace', { exact: true }).locator('option').allTextContents();
    expect(workspaces.sort()).toEqual(['Acme Markets', 'Their shop']);
  });
});
