// Ids: a type prefix and a 26-character lower-case time-ordered
// part, so sorting ids sorts by creation. The prefixes are the kernel's and the modules' (each
// declared in its module's declarations.ts), assembled and installed by the composition root.
import { describe, expect, it, vi } from 'vitest';
import { decodeTime } from 'ulid';
import { MODULES } from '../src/app/modules.js';
import { idPrefixesOf } from '../src/app/wiring.js';
import { idPrefixes, installIdPrefixes, isIdOf, newId, randomBase62, timeOrderedPart, type IdKind } from '../src/ids.js';

// What buildWiring does at every start, without the rest of a wiring.
const ID_PREFIXES = idPrefixesOf(MODULES);
installIdPrefixes(ID_PREFIXES);

// Module state (the last millisecond used) carries from test to test: these run first, with the
// real clock, then with times later than any before them.
describe('timeOrderedPart', () => {
  it('is a ULID: its first 10 characters are the millisecond of creation', () => {
    const before = Date.now();
    const part = newId('event').slice(4);
    const after = Date.now();
    const at = decodeTime(part.toUpperCase());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  });

  it('adds one to the random part within a millisecond, and keeps the time when the clock steps back', () => {
    const ms = Date.parse('2098-01-01T00:00:00.000Z');
    const a = timeOrderedPart(ms);
    const b = timeOrderedPart(ms);
    const c = timeOrderedPart(ms - 5000);
    expect(b.slice(0, 10)).toBe(a.slice(0, 10));
    expect(c.slice(0, 10)).toBe(a.slice(0, 10));
    expect(a < b && b < c).toBe(true);
    expect(decodeTime(a.toUpperCase())).toBe(ms);
  });

  it('draws a fresh random part each millisecond', () => {
    const ms = Date.parse('2098-06-01T00:00:00.000Z');
    const parts = Array.from({ length: 300 }, (_, i) => timeOrderedPart(ms + i).slice(10));
    expect(new Set(parts).size).toBe(parts.length);
  });
});

describe('newId', () => {
  it.each(Object.entries(ID_PREFIXES))('%s ids start with %s_ and a 26-character lower-case part', (kind, prefix) => {
    const id = newId(kind as IdKind);
    expect(id).toMatch(new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`));
    expect(isIdOf(kind as IdKind, id)).toBe(true);
  });

  it('has the documented id prefixes, every one of them, each once', () => {
    expect(ID_PREFIXES).toEqual({
      category: 'cat', listing: 'lst', media: 'med', webhookEndpoint: 'whe', webhookDelivery: 'whd', event: 'evt',
      payment: 'pay', refund: 'ref', review: 'rev', seller: 'sel', order: 'ord', request: 'req', buyer: 'byr',
      storefront: 'sto', onboardingLink: 'obl', verification: 'ver', dispute: 'dsp', cardDispute: 'cdp',
      reputationEvent: 'rep', flag: 'flg', moderationAction: 'mda', orderTransition: 'otr', marketplace: 'mkt',
      workspace: 'wsp', user: 'usr', apiKey: 'key', email: 'eml', timer: 'tmr', managementToken: 'mgt',
      dashboardSession: 'dss', balanceTransaction: 'btx', journalEntry: 'jrn', report: 'rpt', checkout: 'chk', payout: 'po',
    });
    expect(new Set(Object.values(ID_PREFIXES)).size).toBe(Object.values(ID_PREFIXES).length);
    expect(idPrefixes()).toEqual(ID_PREFIXES);
  });

  it('refuses a kind that has no prefix in the process, instead of minting undefined_…', () => {
    expect(() => newId('nobody' as IdKind)).toThrow("id kind 'nobody' has no prefix in this process");
    expect(() => isIdOf('nobody' as IdKind, 'x_1')).toThrow("id kind 'nobody' has no prefix in this process");
  });

  it('installs again what another wiring of the process gives alike, and refuses a kind or a prefix given otherwise', () => {
    installIdPrefixes({ ...ID_PREFIXES, gadget: 'gdg' });
    expect(newId('gadget' as IdKind)).toMatch(/^gdg_/);
    expect(() => installIdPrefixes({ order: 'odr' })).toThrow("id kind 'order' has the prefix 'ord' in this process, not 'odr'");
    expect(() => installIdPrefixes({ purchase: 'ord' })).toThrow("id prefix 'ord' belongs to the kind 'order' in this process, not to 'purchase'");
    expect(newId('order')).toMatch(/^ord_/);
  });

  it('sorting by id sorts by creation, within one millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => newId('order'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorting by id sorts by creation across time, whatever the random part', () => {
    vi.useFakeTimers();
    try {
      const ids: string[] = [];
      for (const at of ['2098-07-01T00:00:00.000Z', '2098-07-01T00:00:00.001Z', '2099-06-01T12:00:00.000Z', '2099-12-31T23:59:59.999Z']) {
        vi.setSystemTime(new Date(at));
        ids.push(newId('listing'));
      }
      expect([...ids].sort()).toEqual(ids);
      // The first 10 characters encode the millisecond.
      expect(ids[0]!.slice(4, 14) < ids[1]!.slice(4, 14)).toBe(true);
      // A clock that steps back does not break the order within a process.
      vi.setSystemTime(new Date('2098-08-01T00:00:00.000Z'));
      const afterStepBack = newId('listing');
      expect(afterStepBack > ids.at(-1)!).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isIdOf', () => {
  it('refuses other kinds and other shapes', () => {
    const id = newId('listing');
    expect(isIdOf('order', id)).toBe(false);
    expect(isIdOf('listing', id.toUpperCase())).toBe(false);
    expect(isIdOf('listing', `${id}x`)).toBe(false);
    expect(isIdOf('listing', 'lst_')).toBe(false);
    expect(isIdOf('listing', `lst_${'0'.repeat(25)}'`)).toBe(false);
  });
});

describe('randomBase62', () => {
  it('gives the length asked, from the base62 alphabet, without repeats', () => {
    const values = Array.from({ length: 200 }, () => randomBase62(40));
    for (const value of values) expect(value).toMatch(/^[0-9A-Za-z]{40}$/);
    expect(new Set(values).size).toBe(values.length);
  });

  it('uses every symbol about equally (no modulo bias)', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });
});
