// The live statuses of the user's uploads (DESIGN §3 upload statuses): an EventSource open while the
// import dialog is, reopened with a growing delay after an error, closed when the dialog closes.
import { useEffect, useRef } from 'react';
import { getSession } from '../../offline/session';
import { parseFileEvent, type FileEvent } from './import-model';

const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** 1 s, 2 s, 4 s, … up to 30 s. */
export function reconnectDelay(failures: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

export function statusesUrl(userId: string | number, token: string): string {
  // EventSource cannot send headers: the token travels as access_token (DESIGN §3).
  return `/api/v3/users/${encodeURIComponent(String(userId))}/files/statuses?access_token=${encodeURIComponent(token)}`;
}

export function useUploadStatuses(open: boolean, onEvent: (event: FileEvent) => void): void {
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;

  useEffect(() => {
    if (!open || typeof EventSource !== 'function') return;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    let stopped = false;

    const connect = () => {
      const session = getSession();
      if (stopped || !session) return;
      source = new EventSource(statusesUrl(session.user_id, session.token));
      source.addEventListener('open', () => {
        failures = 0;
      });
      source.addEventListener('file', (e) => {
        const event = parseFileEvent((e as MessageEvent<string>).data);
        if (event) onEventRef.current(event);
      });
      // The browser's own retry stops on an HTTP error; ours covers both, with backoff.
      source.addEventListener('error', () => {
        source?.close();
        source = null;
        if (stopped) return;
        failures++;
        timer = setTimeout(connect, reconnectDelay(failures));
      });
    };
    connect();

    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [open]);
}
