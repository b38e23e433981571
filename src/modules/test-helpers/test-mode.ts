// Test helpers exist only in test mode: a live key gets 403 test_mode_only.
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../errors.js';
import type { Scope } from '../../scope.js';

export function assertTestMode(scope: Scope): void {
  if (scope.mode !== 'test') {
    throw new DomainError('test_mode_only', 'Test helpers only work with test-mode keys; live mode always runs on real time.');
  }
}

/**
 * A preValidation hook for test-helper routes, so a live key is refused with 403 before its body
 * is checked: the answer does not depend on what was sent.
 */
export async function requireTestMode(request: FastifyRequest): Promise<void> {
  assertTestMode(request.ctx.scope);
}
