// Attribute validation as properties over generated schemas and values: values made
// to fit always pass; each kind of misfit is refused, naming attributes.<key>.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findAttributeProblem } from '../../../src/modules/categories/attributes.js';
import type { AttributeSchemaValue, StoredAttributeDefinition } from '../../../src/modules/categories/schemas.js';

const key = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,12}$/);
const bound = fc.integer({ min: -1_000_000, max: 1_000_000 });

const definition: fc.Arbitrary<StoredAttributeDefinition> = fc
  .record({
    key,
    required: fc.boolean(),
    kind: fc.constantFrom('string', 'number', 'integer', 'boolean', 'enum' as const),
    a: bound,
    b: bound,
    hasMin: fc.boolean(),
    hasMax: fc.boolean(),
    maxLength: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
    options: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== ''), { minLength: 1, maxLength: 5 }),
  })
  .map(({ key, required, kind, a, b, hasMin, hasMax, maxLength, options }) => {
    const numeric = kind === 'number' || kind === 'integer';
    return {
      key,
      label: null,
      type: kind,
      required,
      options: kind === 'enum' ? options : null,
      min: numeric && hasMin ? Math.min(a, b) : null,
      max: numeric && hasMax ? Math.max(a, b) : null,
      max_length: kind === 'string' ? maxLength : null,
    };
  });

const schema: fc.Arbitrary<AttributeSchemaValue> = fc
  .uniqueArray(definition, { minLength: 1, maxLength: 8, selector: (d) => d.key })
  .map((attributes) => ({ attributes }));

/** A value that fits the definition, from a random seed. */
function fittingValue(d: StoredAttributeDefinition, seed: { n: number; frac: number; text: string; pick: number }): string {
  const lo = d.min ?? -1_000_000;
  const hi = d.max ?? 1_000_000;
  const whole = lo + (Math.abs(seed.n) % (hi - lo + 1));
  switch (d.type) {
    case 'integer':
      return String(whole);
    case 'number': {
      // A decimal inside [lo, hi]: a whole number below hi plus a fraction under 1.
      if (whole >= hi) return String(hi);
      return ((whole * 100 + seed.frac) / 100).toFixed(2);
    }
    case 'boolean':
      return seed.pick % 2 === 0 ? 'true' : 'false';
    case 'enum':
      return d.options![seed.pick % d.options!.length]!;
    case 'string': {
      // Cut to max_length first, then make sure what is left is not blank (required means not blank).
      const cut = d.max_length === null ? seed.text : [...seed.text].slice(0, d.max_length).join('');
      return cut.trim() === '' ? 'x' : cut;
    }
  }
}

const seed = fc.record({ n: fc.integer(), frac: fc.integer({ min: 0, max: 99 }), text: fc.string({ minLength: 1, maxLength: 60 }), pick: fc.nat() });

/** A schema with values that fit it: required keys always present, optional ones sometimes. */
const fitting = fc.tuple(schema, fc.array(seed, { minLength: 8, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 })).map(
  ([s, seeds, include]) => {
    const values: Record<string, string> = {};
    s.attributes.forEach((d, i) => {
      if (d.required || include[i]) values[d.key] = fittingValue(d, seeds[i]!);
    });
    return { schema: s, values };
  },
);

describe('attribute validation, as properties', () => {
  it('accepts values made to fit', () => {
    fc.assert(
      fc.property(fitting, ({ schema, values }) => {
        expect(findAttributeProblem(schema, values)).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a key the schema does not define', () => {
    fc.assert(
      fc.property(fitting, key, ({ schema, values }, extra) => {
        fc.pre(!schema.attributes.some((d) => d.key === extra));
        expect(findAttributeProblem(schema, { ...values, [extra]: 'x' })?.param).toBe(`attributes.${extra}`);
      }),
    );
  });

  it('refuses a missing or blank required value', () => {
    fc.assert(
      fc.property(fitting, fc.nat(), fc.constantFrom(undefined, '', '  '), ({ schema, values }, pick, blank) => {
        const required = schema.attributes.filter((d) => d.required);
        fc.pre(required.length > 0);
        const target = required[pick % required.length]!;
        const changed = { ...values };
        if (blank === undefined) delete changed[target.key];
        else changed[target.key] = blank;
        // Definitions are checked in schema order, so the first problem may be an earlier one
        // only if it also misfits; the values fit, so it is this one.
        expect(findAttributeProblem(schema, changed)?.param).toBe(`attributes.${target.key}`);
      }),
    );
  });

  const misfit = (type: StoredAttributeDefinition['type'], values: fc.Arbitrary<string>, when: (d: StoredAttributeDefinition) => boolean = () => true) =>
    fc.property(fitting, fc.nat(), values, ({ schema, values: fit }, pick, bad) => {
      const targets = schema.attributes.filter((d) => d.type === type && when(d));
      fc.pre(targets.length > 0);
      const target = targets[pick % targets.length]!;
      expect(findAttributeProblem(schema, { ...fit, [target.key]: bad })?.param).toBe(`attributes.${target.key}`);
    });

  it('refuses text that is not a number, an integer or a boolean', () => {
    const notNumber = fc.constantFrom('abc', '1e5', '1,5', '0x10', '--1', '1.', '.5', 'NaN', 'Infinity', ' 1', '');
    fc.assert(misfit('number', notNumber));
    fc.assert(misfit('integer', fc.oneof(notNumber, fc.constantFrom('1.5', '2.0', '-0.1'))));
    fc.assert(misfit('boolean', fc.constantFrom('TRUE', 'yes', '1', '0', 'False', '')));
  });

  it('refuses numbers below min or above max', () => {
    const below = (d: StoredAttributeDefinition) => d.min !== null;
    fc.assert(
      fc.property(fitting, fc.nat(), fc.integer({ min: 1, max: 1000 }), ({ schema, values }, pick, by) => {
        const targets = schema.attributes.filter((d) => (d.type === 'number' || d.type === 'integer') && (d.min !== null || d.max !== null));
        fc.pre(targets.length > 0);
        const t = targets[pick % targets.length]!;
        const outside = below(t) ? t.min! - by : t.max! + by;
        expect(findAttributeProblem(schema, { ...values, [t.key]: String(outside) })?.param).toBe(`attributes.${t.key}`);
      }),
    );
  });

  it('refuses strings over max_length', () => {
    fc.assert(
      fc.property(fitting, fc.nat(), fc.integer({ min: 1, max: 20 }), ({ schema, values }, pick, over) => {
        const targets = schema.attributes.filter((d) => d.type === 'string' && d.max_length !== null);
        fc.pre(targets.length > 0);
        const t = targets[pick % targets.length]!;
        expect(findAttributeProblem(schema, { ...values, [t.key]: 'é'.repeat(t.max_length! + over) })?.param).toBe(`attributes.${t.key}`);
      }),
    );
  });

  it('refuses a value that is not one of the options', () => {
    fc.assert(
      fc.property(fitting, fc.nat(), fc.string({ maxLength: 10 }), ({ schema, values }, pick, text) => {
        const targets = schema.attributes.filter((d) => d.type === 'enum');
        fc.pre(targets.length > 0);
        const t = targets[pick % targets.length]!;
        fc.pre(!t.options!.includes(text));
        expect(findAttributeProblem(schema, { ...values, [t.key]: text })?.param).toBe(`attributes.${t.key}`);
      }),
    );
  });

  it('counts max_length in characters, not UTF-16 units', () => {
    const s: AttributeSchemaValue = {
      attributes: [{ key: 'k', label: null, type: 'string', required: false, options: null, min: null, max: null, max_length: 2 }],
    };
    expect(findAttributeProblem(s, { k: '😀😀' })).toBeNull();
    expect(findAttributeProblem(s, { k: '😀😀😀' })?.param).toBe('attributes.k');
  });
});

describe('bounds compared exactly', () => {
  const numeric = (type: 'number' | 'integer', min: number | null, max: number | null): AttributeSchemaValue => ({
    attributes: [{ key: 'n', label: null, type, required: false, options: null, min, max, max_length: null }],
  });

  it('refuses a decimal a hair past a bound that floating point would round onto it', () => {
    expect(findAttributeProblem(numeric('number', -5, 5), { n: '5.0000000000000001' })?.param).toBe('attributes.n');
    expect(findAttributeProblem(numeric('number', -5, 5), { n: '-5.0000000000000001' })?.param).toBe('attributes.n');
    expect(findAttributeProblem(numeric('number', -5, 5), { n: '5.000' })).toBeNull();
    expect(findAttributeProblem(numeric('number', -5, 5), { n: '-0' })).toBeNull();
    const big = Number.MAX_SAFE_INTEGER - 1;
    expect(findAttributeProblem(numeric('integer', null, big), { n: String(big + 2) })?.param).toBe('attributes.n');
    expect(findAttributeProblem(numeric('integer', null, big), { n: String(big) })).toBeNull();
    expect(findAttributeProblem(numeric('integer', -big, null), { n: `-${big + 2}` })?.param).toBe('attributes.n');
  });

  it('compares decimal text with integer bounds as exact decimals', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.stringMatching(/^\d{0,25}$/), bound, (whole, fraction, limit) => {
        const text = `${whole < 0n ? '-' : ''}${whole < 0n ? -whole : whole}${fraction === '' ? '' : `.${fraction}`}`;
        const exact = whole * 10n ** BigInt(fraction.length) + (whole < 0n ? -1n : 1n) * BigInt(fraction === '' ? 0 : fraction);
        const scaledLimit = BigInt(limit) * 10n ** BigInt(fraction.length);
        expect(findAttributeProblem(numeric('number', null, limit), { n: text }) === null).toBe(exact <= scaledLimit);
        expect(findAttributeProblem(numeric('number', limit, null), { n: text }) === null).toBe(exact >= scaledLimit);
      }),
    );
  });
});
