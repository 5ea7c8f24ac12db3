// Signal "this user's uploads changed", so the status stream answers at once instead of at its next poll.
// Once the server connects the bus (main.ts), the signal reaches the streams of every API process; the
// stream still polls (every 500 ms), which covers a lost signal.
import { EventEmitter } from 'node:events';
import type { Bus } from '../db/bus';

export const UPLOADS_CHANGED = 'cc_uploads_changed';

const emitter = new EventEmitter();
emitter.setMaxListeners(0);
let bus: Bus | null = null;

/** Sends every later change through `b` (and hears the other processes' changes from it). */
export function connectUploadsBus(b: Bus): void {
  bus = b;
  b.subscribe(UPLOADS_CHANGED, (payload) => emitter.emit(payload));
}

export function uploadsChanged(userId: number): void {
  if (bus) bus.publish(UPLOADS_CHANGED, String(userId));
  else emitter.emit(String(userId));
}

/** Calls `fn` on each change of that user's uploads; answers the unsubscribe. */
export function onUploadsChanged(userId: number, fn: () => void): () => void {
  emitter.on(String(userId), fn);
  return () => emitter.off(String(userId), fn);
}
