// The in-process signal that deliveries were written: a dispatcher of this process claims at
// once instead of at its next poll. Other processes find them by polling (dispatcher.ts).
import { EventEmitter } from 'node:events';

const local = new EventEmitter();
local.setMaxListeners(0);

export function signalDeliveries(): void {
  local.emit('wake');
}

export function onDeliveriesSignal(listener: () => void): () => void {
  local.on('wake', listener);
  return () => local.off('wake', listener);
}
