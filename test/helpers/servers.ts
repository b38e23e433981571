// What the global setup (test/helpers/global-setup.ts) found about the servers some tests need.
import { inject } from 'vitest';

/** The Redis the Redis tests use, or null when it did not answer: those tests are then skipped. */
export const redisUrl: string | null = inject('redisUrl');
export const redisAvailable = redisUrl !== null;
