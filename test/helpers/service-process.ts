// The service as a user starts it, in a process of its own: `node dist/main.js` or `npm start`,
// on a fresh embedded database, with its first start's banner read back (the demo's keys).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM to the whole process group (npm, its shell, node), then waits for the exit. */
  stop(): Promise<number | null>;
}

/** `npm run build`: only what changed (scripts/build.mjs), one build at a time per tree. */
export function buildOnce(root = ROOT): string {
  return execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export function startService(command: string[], env: Record<string, string>, cwd = ROOT): ServiceProcess {
  const [file, ...args] = command;
  const child = spawn(file!, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited,
    async waitFor(pattern, timeoutMs = 120_000) {
      const giveUpAt = Date.now() + timeoutMs;
      for (;;) {
        const match = text.match(pattern);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > giveUpAt) throw new Error(`did not print ${pattern}; output:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Gone already.
        }
      }
      return exited;
    },
  };
}

/** Polls GET /readyz until it answers 200; the milliseconds from `since`. */
export async function waitReady(base: string, since: number, timeoutMs = 180_000): Promise<number> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return Date.now() - since;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > giveUpAt) throw new Error(`${base}/readyz did not answer 200 within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The demo's test keys from the first start's banner. */
export function demoKeys(banner: string): { secretKey: string; publishableKey: string } {
  const secretKey = banner.match(/Test secret key\s+(sk_test_[0-9A-Za-z]+)/)?.[1];
  const publishableKey = banner.match(/Test publishable key\s+(pk_test_[0-9A-Za-z]+)/)?.[1];
  if (!secretKey || !publishableKey) throw new Error(`no demo keys in the banner:\n${banner}`);
  return { secretKey, publishableKey };
}
