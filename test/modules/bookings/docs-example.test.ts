// docs/bookings.md's worked example, replayed through the API: each ```http block that starts with
// a method is a request, the next one (`HTTP/1.1 <status>` and JSON) the answer it must give (the
// JSON a subset of the answer; arrays in full). `{seller}`, `{buyer}` are made first; `{listing}`
// and `{order}` are the first listing and order the example creates.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBuyer, createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { newClock } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ clock: newClock() });
});
afterAll(() => ctx.close());

const DOC = readFileSync(new URL('../../../docs/bookings.md', import.meta.url), 'utf8');

function blocks(): string[] {
  const example = DOC.slice(DOC.indexOf('## Worked example'), DOC.indexOf('## Not built yet'));
  return [...example.matchAll(/```http\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());
}

it("replays docs/bookings.md's worked example: each request answers what the page shows", async () => {
  const ids: Record<string, string> = { seller: (await createSeller(ctx)).id, buyer: (await createBuyer(ctx)).id };
  const fill = (text: string) => text.replace(/\{(seller|buyer|listing|order)\}/g, (_, name: string) => ids[name] ?? `{${name}}`);
  const steps = blocks();
  expect(steps.length).toBe(18);
  for (let i = 0; i < steps.length; i += 2) {
    const [line, ...body] = fill(steps[i]!).split('\n');
    const [method, url] = line!.split(' ');
    const [status, ...answer] = fill(steps[i + 1]!).split('\n');
    const res = await ctx.request(url!, { method: method as 'GET', ...(body.length > 0 ? { body: JSON.parse(body.join('\n')) } : {}) });
    expect(`${method} ${url} → ${res.status}`, res.text).toBe(`${method} ${url} → ${status!.split(' ')[1]}`);
    expect(res.body).toMatchObject(JSON.parse(answer.join('\n')));
    if (res.body.object === 'listing') ids.listing ??= res.body.id;
    if (res.body.object === 'order') ids.order ??= res.body.id;
  }
});
