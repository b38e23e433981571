// Time comes from here. The base clock is injected (tests can pin or move it); each test mode has
// its own offset on top of it, kept in marketplace_modes.clock_offset_ms so every
// process and the timer query in SQL agree. Live mode always runs on real time.
export interface Clock {
  /** Milliseconds since the epoch, of the real (base) clock. */
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock a test moves by hand. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.parse('2026-11-21T09:30:00.000Z')) {}
  nowMs(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

export function toTimestamp(value: Date | number | string | null): string | null {
  if (value === null) return null;
  return new Date(value).toISOString();
}
