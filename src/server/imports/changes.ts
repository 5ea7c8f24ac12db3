// In-process signal "this user's uploads changed", so the status stream answers at once instead of at
// its next poll. The stream still polls (every 500 ms), which covers a worker in another process.
import { EventEmitter } from 'node:events';

const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export function uploadsChanged(userId: number): void {
  emitter.emit(String(userId));
}

/** Calls `fn` on each change of that user's uploads; answers the unsubscribe. */
export function onUploadsChanged(userId: number, fn: () => void): () => void {
  emitter.on(String(userId), fn);
  return () => emitter.off(String(userId), fn);
}
