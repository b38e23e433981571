// The bounds per tenant (docs/configuration.md, "Bounds per tenant"): their defaults, and a bad
// value stops start naming the variable.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../src/config.js';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-limits-')), SECRET_KEY: 'ab'.repeat(32) });

describe('bounds per tenant', () => {
  it('default to 16 endpoints, 20 media, 50 evidence items, 20 keys, 50 pending invitations, 10 pending reports, 20 workspaces, 50 marketplaces, 10,000 pending deliveries per endpoint and 5 replays a second', () => {
    expect(parseConfig(base()).limits).toEqual({
      webhookEndpoints: 16,
      mediaPerListing: 20,
      evidencePerDispute: 50,
      apiKeys: 20,
      pendingInvitations: 50,
      pendingReports: 10,
      workspacesPerUser: 20,
      marketplacesPerWorkspace: 50,
      webhookPendingDeliveries: 10000,
      webhookReplaysPerSecond: 5,
    });
  });

  it('read every variable', () => {
    const config = parseConfig({ ...base(), MAX_WEBHOOK_ENDPOINTS: '4', MAX_MEDIA_PER_LISTING: '8', MAX_EVIDENCE_PER_DISPUTE: '100', MAX_API_KEYS: '10000', MAX_PENDING_INVITATIONS: '3', MAX_PENDING_REPORTS: '5', MAX_WORKSPACES_PER_USER: '2', MAX_MARKETPLACES_PER_WORKSPACE: '7', MAX_PENDING_WEBHOOK_DELIVERIES: '50', WEBHOOK_REPLAYS_PER_SECOND: '2' });
    expect(config.limits).toEqual({ webhookEndpoints: 4, mediaPerListing: 8, evidencePerDispute: 100, apiKeys: 10000, pendingInvitations: 3, pendingReports: 5, workspacesPerUser: 2, marketplacesPerWorkspace: 7, webhookPendingDeliveries: 50, webhookReplaysPerSecond: 2 });
  });

  it.each(['0', '-1', '1.5', 'many', '10001'])('refuse %s, naming the variable', (value) => {
    for (const name of ['MAX_WEBHOOK_ENDPOINTS', 'MAX_MEDIA_PER_LISTING', 'MAX_EVIDENCE_PER_DISPUTE', 'MAX_API_KEYS', 'MAX_PENDING_INVITATIONS', 'MAX_PENDING_REPORTS', 'MAX_WORKSPACES_PER_USER', 'MAX_MARKETPLACES_PER_WORKSPACE', 'MAX_PENDING_WEBHOOK_DELIVERIES', 'WEBHOOK_REPLAYS_PER_SECOND']) {
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
