// The bounds per tenant (docs/configuration.md, "Bounds per tenant"): their defaults, and a bad
// value stops start naming the variable.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-limits-')), SECRET_KEY: 'ab'.repeat(32) });

describe('bounds per tenant', () => {
  it('default to 16 endpoints, 20 media, 50 evidence items, 20 keys, 50 pending invitations and 10 pending reports', () => {
    expect(parseConfig(base()).limits).toEqual({ webhookEndpoints: 16, mediaPerListing: 20, evidencePerDispute: 50, apiKeys: 20, pendingInvitations: 50, pendingReports: 10 });
  });

  it('read every variable', () => {
    const config = parseConfig({ ...base(), MAX_WEBHOOK_ENDPOINTS: '4', MAX_MEDIA_PER_LISTING: '8', MAX_EVIDENCE_PER_DISPUTE: '100', MAX_API_KEYS: '10000', MAX_PENDING_INVITATIONS: '3', MAX_PENDING_REPORTS: '5' });
    expect(config.limits).toEqual({ webhookEndpoints: 4, mediaPerListing: 8, evidencePerDispute: 100, apiKeys: 10000, pendingInvitations: 3, pendingReports: 5 });
  });

  it.each(['0', '-1', '1.5', 'many', '10001'])('refuse %s, naming the variable', (value) => {
    for (const name of ['MAX_WEBHOOK_ENDPOINTS', 'MAX_MEDIA_PER_LISTING', 'MAX_EVIDENCE_PER_DISPUTE', 'MAX_API_KEYS', 'MAX_PENDING_INVITATIONS', 'MAX_PENDING_REPORTS']) {
      let error: unknown;
      try {
        parseConfig({ ...base(), [name]: value });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe(name);
      expect((error as ConfigError).message).toContain('from 1 to 10000');
    }
  });
});
