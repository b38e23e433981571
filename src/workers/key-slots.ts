// Per-key caps of one process: how many of a key's items (an endpoint's attempts, a tenant's) are in
// flight here, and which keys are at a cap, as a claim statement takes them (keys to skip, keys
// with slots left and how many).

export class KeySlots {
  private readonly counts = new Map<string, number>();

  /** Counts one more in flight for `key`; answers the count before. */
  take(key: string): number {
    const before = this.counts.get(key) ?? 0;
    this.counts.set(key, before + 1);
    return before;
  }

  /** Counts one fewer in flight for `key`; answers the count before. */
  give(key: string): number {
    const before = this.counts.get(key) ?? 1;
    if (before <= 1) this.counts.delete(key);
    else this.counts.set(key, before - 1);
    return before;
  }

  /** The keys at `cap` (or past it), and the others with the slots each has left under it. */
  split(cap: number): { full: string[]; partial: string[]; slots: number[] } {
    const full: string[] = [];
    const partial: string[] = [];
    const slots: number[] = [];
    for (const [key, count] of this.counts) {
      if (count >= cap) full.push(key);
      else {
        partial.push(key);
        slots.push(cap - count);
      }
    }
    return { full, partial, slots };
  }
}
