// The root's assembly of expandable objects (src/app/wiring.ts): one declaration per object, and
// every field naming a declared object, or the start stops naming the fault.
import { describe, expect, it } from 'vitest';
import { buildWiring } from '../../src/app/wiring.js';
import { MODULES } from '../../src/app/modules.js';
import type { ExpandableObject } from '../../src/contracts/expansion.js';
import { testConfig } from '../helpers/harness.js';

const config = testConfig();
const orders = buildWiring(config).expandable.order!;

describe('expandable objects in the wiring', () => {
  it('gathers every module\'s objects by name', () => {
    expect(Object.keys(buildWiring(config).expandable).sort()).toEqual(['buyer', 'category', 'checkout', 'dispute', 'listing', 'order', 'payment', 'refund', 'seller']);
  });

  it('refuses an object declared twice', () => {
    expect(() => buildWiring(config, [...MODULES, { name: 'again', expandable: [orders] }])).toThrow("expandable object 'order' is declared twice (again by again)");
  });

  it('refuses a field that expands to an object nobody declares', () => {
    const stray: ExpandableObject = { ...orders, object: 'stray', fields: { owner: 'owner' } };
    expect(() => buildWiring(config, [...MODULES, { name: 'stray', expandable: [stray] }])).toThrow("stray.owner expands to 'owner', which no module declares");
  });
});
