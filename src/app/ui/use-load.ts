// One server read of a screen as a state (loading, ready or error). A read that failed for want of a
// connection tries again by itself when the browser comes back online, and `retry` tries at once: a
// link opened on a bad connection (an invitation, an OAuth authorisation) recovers without a reload.
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../offline/http';
import { useOnline } from '../use-online';

export type Load<T> = { kind: 'loading' } | { kind: 'ready'; value: T } | { kind: 'error'; message: string; offline: boolean };

/**
 * Runs `load` whenever `key` changes (null: not yet, the state stays 'loading'); `messageOf` turns a
 * failure into the Spanish text to show.
 */
export function useLoad<T>(key: string | number | null, load: () => Promise<T>, messageOf: (err: unknown) => string): [Load<T>, () => void] {
  const [state, setState] = useState<Load<T>>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const online = useOnline();
  const wasOnline = useRef(online);
  const loadRef = useRef(load);
  loadRef.current = load;
  const messageRef = useRef(messageOf);
  messageRef.current = messageOf;

  useEffect(() => {
    if (key === null) return;
    let live = true;
    setState({ kind: 'loading' });
    loadRef.current().then(
      (value) => live && setState({ kind: 'ready', value }),
      (err: unknown) => live && setState({ kind: 'error', message: messageRef.current(err), offline: err instanceof ApiError && err.offline }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);

  // Only on the way back online: a server that cannot be reached while online is not retried in a loop.
  const offlineError = state.kind === 'error' && state.offline;
  useEffect(() => {
    if (online && !wasOnline.current && offlineError) setAttempt((a) => a + 1);
    wasOnline.current = online;
  }, [online, offlineError]);

  return [state, () => setAttempt((a) => a + 1)];
}
