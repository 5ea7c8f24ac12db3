// navigator.onLine as React state: offline is a normal state every screen shows (brand guide).
import { useState, useSyncExternalStore } from 'react';

function subscribe(cb: () => void): () => void {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
}

/**
 * Calls `retry` each time a read that failed for want of a connection can try again (online and
 * `offlineFailure` both true, newly). Runs while rendering rather than in an effect, so `retry` must
 * only set the calling component's own state (its attempt counter).
 */
export function useBackOnline(offlineFailure: boolean, retry: () => void): void {
  const ready = useOnline() && offlineFailure;
  const [wasReady, setWasReady] = useState(false);
  if (ready !== wasReady) {
    setWasReady(ready);
    if (ready) retry();
  }
}
