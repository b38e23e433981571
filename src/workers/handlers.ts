// Every timer kind and the module that handles it. Adding a kind is one line.
import type { TimerHandlers } from './timers.js';

export const timerHandlers: TimerHandlers = {};
