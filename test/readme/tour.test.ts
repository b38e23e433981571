// The README's five-minute tour, run literally from the README's own code block (bash, curl, jq)
// against `node dist/main.js` on a fresh embedded database, twice in a row: both runs succeed,
// including the paid checkout. The only changes are the three values a reader pastes in: the
// demo's two test keys printed at first start, and the port (this test's server is not on 8080).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/ports.js';
import { buildOnce, demoKeys, ROOT, startService, waitReady, type ServiceProcess } from '../helpers/service-process.js';

const START_TIMEOUT_MS = 180_000;

function missingTools(): string[] {
  return ['bash', 'curl', 'jq'].filter((tool) => {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
}

/** The tour's shell block: the first ```sh block of "## A five-minute tour" that sets SK. */
export function tourBlock(readme: string): string {
  const section = readme.slice(readme.indexOf('## A five-minute tour'));
  const block = /```sh\n(export SK=[\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no tour block (```sh starting with export SK=) under "## A five-minute tour"');
  return block;
}

/** The block with the reader's three values in place of its placeholders (each there exactly once). */
function withValues(block: string, values: Record<string, string>): string {
  let script = block;
  for (const [placeholder, value] of Object.entries(values)) {
    expect(script.split(placeholder).length - 1, `the tour names ${placeholder} once`).toBe(1);
    script = script.replace(placeholder, value);
  }
  return script;
}

const missing = missingTools();
if (missing.length > 0 && process.env.CI) throw new Error(`The README tour test needs ${missing.join(', ')} (.ci/run installs jq)`);
if (missing.length > 0) console.warn(`README tour test skipped: ${missing.join(', ')} not installed`);

describe.skipIf(missing.length > 0)('the README tour', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mkt-tour-'));
  let service: ServiceProcess;
  let script = '';

  beforeAll(async () => {
    buildOnce();
    const port = await freePort();
    const started = Date.now();
    service = startService([process.execPath, 'dist/main.js'], { PORT: String(port), DATA_DIR: dataDir });
    const banner = (await service.waitFor(/┌[\s\S]*└─+┘/, START_TIMEOUT_MS))[0];
    await waitReady(`http://127.0.0.1:${port}`, started);
    const keys = demoKeys(banner);
    script = withValues(tourBlock(readFileSync(join(ROOT, 'README.md'), 'utf8')), {
      'sk_test_...': keys.secretKey,
      'pk_test_...': keys.publishableKey,
      'http://127.0.0.1:8080': `http://127.0.0.1:${port}`,
    });
  }, 600_000);

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const run of ['first', 'second']) {
    it(`runs to the end, the ${run} time: no error, the checkout paid, its order committed`, () => {
      // -e -u -o pipefail: a command that fails or a variable left unset stops the run.
      const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { encoding: 'utf8', timeout: 120_000 });
      const output = `${result.stdout}\n${result.stderr}`;
      expect(result.status, output).toBe(0);
      expect(result.stderr, output).toBe('');
      // Every error answers {"error": {...}}; an id left null would make one further down.
      expect(result.stdout, output).not.toMatch(/"error"|\bnull\/|\/null\b/);
      expect(result.stdout, output).toMatch(/"payments_enabled":true/);
      expect(result.stdout, output).toMatch(/\{"status":"enabled"/);
      expect(result.stdout, output).toMatch(/"status": "awaiting_payment"/);
      // The simulated processor's pay page, as the API answered it.
      expect(result.stdout, output).toMatch(/"payment_url": "http:\/\/127\.0\.0\.1:\d+\/\S+"/);
      expect(result.stdout, output).toMatch(/\{"id":"pay_\w+","status":"succeeded","amount":45000\}/);
      expect(result.stdout, output).toMatch(/\{"id":"chk_\w+","status":"completed","orders":\["ord_\w+"\]\}/);
      expect(result.stdout, output).toMatch(/\{"id":"ord_\w+","state":"committed","total":45000\}/);
    }, 150_000);
  }
});
