// Prints the top self-time entries of a V8 .cpuprofile (written by `BENCH_PROFILE=… npm run bench`
// or `node --cpu-prof`): by function (name, file:line, share), then by where the code lives
// (a package under node_modules, a file of ours, Node's internals). Shares are of the non-idle
// samples, so a run where the process waited longer does not dilute them.
//
//   npx tsx bench/profile-top.ts real.cpuprofile [N=25]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = '(idle)';

function place(url: string): string {
  if (url === '') return '';
  if (url.startsWith('file://')) return relative(process.cwd(), fileURLToPath(url));
  return url;
}

/** Where a frame's code lives: a package, a source file of ours, Node's internals, or V8's own entries. */
function area(frame: CallFrame): string {
  const path = place(frame.url);
  if (path === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native: V8 builtins, C++)';
  if (path.startsWith('node:')) return 'node: internals';
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packaged) return packaged[1] ?? path;
  return path;
}

function table(title: string, totals: Map<string, number>, all: number, limit: number): string {
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, limit);
  const lines = [`${title}`, '| self % | self ms | entry |', '|---:|---:|---|'];
  for (const [name, micros] of rows) lines.push(`| ${((micros / all) * 100).toFixed(1)} | ${(micros / 1000).toFixed(0)} | ${name} |`);
  return lines.join('\n');
}

function main() {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx bench/profile-top.ts <file.cpuprofile> [N]');
  const limit = Number(count ?? 25);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfByNode = new Map<number, number>();
  // A sample's time is the delta to the next sample (the last one has none to measure).
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    selfByNode.set(id, (selfByNode.get(id) ?? 0) + Math.max(delta, 0));
  }
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  for (const [id, micros] of selfByNode) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === IDLE) {
      idle += micros;
      continue;
    }
    busy += micros;
    const path = place(frame.url);
    const key = `${frame.functionName || '(anonymous)'} ${path ? `${path}:${frame.lineNumber + 1}` : ''}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
    const where = area(frame);
    byArea.set(where, (byArea.get(where) ?? 0) + micros);
  }
  console.log(
    `${file}: ${profile.samples.length} samples, ${(busy / 1000).toFixed(0)} ms busy, ${(idle / 1000).toFixed(0)} ms idle; shares are of the busy time\n`,
  );
  console.log(table(`Top ${limit} functions by self time`, byFunction, busy, limit));
  console.log('');
  console.log(table(`Top ${limit} places by self time`, byArea, busy, limit));
}

main();
