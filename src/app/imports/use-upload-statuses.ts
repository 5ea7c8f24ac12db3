// The live statuses of the user's uploads (DESIGN §3 upload statuses): a server-sent-events stream open
// while the import dialog is, reopened with a growing delay after an error or an end, closed when the
// dialog closes. Read with fetch rather than EventSource so the session token goes in the
// X-Access-Token header, never in the URL (where browser history and proxy logs would keep it).
import { useEffect, useEffectEvent } from 'react';
import { getSession } from '../../offline/session';
import { api } from '../api/client';
import { readEventStream } from '../api/event-stream';
import { parseFileEvent, type FileEvent } from './import-model';

const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** 1 s, 2 s, 4 s, … up to 30 s. */
export function reconnectDelay(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** The stream's path: the user's id only; the token goes in a header. */
export function statusesPath(userId: string | number): string {
  return `/api/v3/users/${encodeURIComponent(String(userId))}/files/statuses`;
}

/** A refusal that a retry cannot fix (signed out, not this user's stream): stop, as EventSource does on an HTTP error. */
export function isFinalStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

export function useUploadStatuses(open: boolean, onEvent: (event: FileEvent) => void): void {
  const handle = useEffectEvent(onEvent);

  useEffect(() => {
    if (!open || typeof fetch !== 'function') return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;

    const connect = async () => {
      const session = getSession();
      if (abort.signal.aborted || !session) return;
      try {
        // The client puts the token in its header; no deadline: the stream stays open while the dialog is.
        const res = await api.raw(statusesPath(session.user_id), {
          headers: { Accept: 'text/event-stream' }, cache: 'no-store', signal: abort.signal, timeout: false,
        });
        if (!res.ok || !res.body) {
          if (isFinalStatus(res.status)) return;
          throw new Error(`statuses ${res.status}`);
        }
        failures = 0;
        await readEventStream(res.body, (e) => {
          if (e.event !== 'file') return;
          const event = parseFileEvent(e.data);
          if (event) handle(event);
        });
      } catch {
        // offline, dropped or refused: retried below unless the dialog closed
      }
      if (abort.signal.aborted) return;
      failures++;
      timer = setTimeout(() => void connect(), reconnectDelay(failures));
    };
    void connect();

    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [open]);
}
