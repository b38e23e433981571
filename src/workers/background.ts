// The background machinery of one process, built by the composition root (src/app/runtime.ts):
// the wake-ups (wake.ts), the pacing of rate-limited keys (pacing.ts) and one loop per module
// component (a batch loop, batch-loop.ts, over the component's kind: the webhook dispatcher), made here
// once so that the worker starts it, the test clock's advance runs it, and tests stop it, all on
// the same object. No module keeps one of its own.
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { WorkerComponent } from '../contracts/background.js';
import type { Background, ComponentLoop } from '../contracts/engine.js';
import type { Db } from '../db/db.js';
import { Pacer } from './pacing.js';
import { WakeUps } from './wake.js';

export function createBackground(deps: { db: Db; clock: Clock; config: Config }, components: readonly WorkerComponent[]): Background {
  const wakeUps = new WakeUps();
  const pacing = new Pacer();
  const loops = new Map<string, ComponentLoop>();
  for (const component of components) {
    if (loops.has(component.name)) throw new Error(`worker component '${component.name}' is declared twice`);
    loops.set(component.name, component.create({ ...deps, background: { wakeUps, pacing } }));
  }
  return {
    wakeUps,
    pacing,
    loop(name) {
      const loop = loops.get(name);
      if (!loop) throw new Error(`no worker component '${name}' in this process's wiring`);
      return loop;
    },
  };
}
