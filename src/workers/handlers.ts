// Every timer kind and the module that handles it. Adding a kind is one line.
import { expireListingTimer, LISTING_EXPIRE_TIMER } from '../modules/listings/operations.js';
import type { TimerHandlers } from './timers.js';

export const timerHandlers: TimerHandlers = {
  [LISTING_EXPIRE_TIMER]: expireListingTimer,
};
