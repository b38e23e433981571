// Pacing: the starts of a rate-limited key (a webhook endpoint with a rate) spaced by 1/rate in this
// process. The claim hands out sending slots (webhook_deliveries.send_at); this spaces the starts
// that would otherwise bunch up when timers fire late. One Pacer per process (background.ts),
// shared by its loops: its memory of the last start per key is a field, not module state.
import type { Pacing } from '../contracts/engine.js';

/** Keys remembered at most; past it the memory starts afresh (a key forgotten starts at once). */
const MAX_KEYS = 10_000;

export class Pacer implements Pacing {
  /** Per key: when this process's last start to it was due to start (clock ms). */
  private readonly lastStarts = new Map<string, number>();

  /**
   * The moment a start to `key` may happen, asked at `nowMs`, or null when it may happen now (then
   * it is counted as started). The spacing is counted from when the previous start was due, not
   * when it happened, so small delays do not add up and slow the key below its rate; after a long
   * stall at most one overdue start is caught up.
   */
  startOrWaitUntil(key: string, rate: number, nowMs: number): number | null {
    const intervalMs = 1000 / rate;
    const previous = this.lastStarts.get(key);
    const earliest = previous === undefined ? nowMs : previous + intervalMs;
    if (nowMs < earliest) return earliest;
    if (this.lastStarts.size > MAX_KEYS) this.lastStarts.clear();
    this.lastStarts.set(key, Math.max(earliest, nowMs - intervalMs));
    return null;
  }
}
