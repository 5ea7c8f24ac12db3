// Whether the user name being typed is free (GET /api/v2/username_available), asked once typing pauses and
// again, if still unknown, when the first step is left — so a taken name is said on step 1, not after the
// captcha. The server limits the calls per address; answers are kept per name, so going back costs none.
import { useCallback, useEffect, useState } from 'react';
import { normalizeUsername, usernameLengthProblem } from '../../domain/username';
import { api } from '../api/client';

/** How long typing must pause before the name is asked about. */
const PAUSE_MS = 600;

export type UsernameState = 'idle' | 'checking' | 'available' | 'taken' | 'unknown';

type Known = Record<string, boolean | 'error'>;

async function askServer(username: string, signal?: AbortSignal): Promise<boolean | 'error'> {
  try {
    const r = await api.get<{ username: string; available: boolean }>('/api/v2/username_available', { username }, signal);
    return r.available;
  } catch (e) {
    if (signal?.aborted) throw e;
    // Offline, limited (429) or down: the sign-up itself still checks, so the wizard goes on.
    return 'error';
  }
}

function stateOf(username: string, known: Known): UsernameState {
  if (usernameLengthProblem(username)) return 'idle';
  const k = known[username];
  if (k === undefined) return 'checking';
  if (k === 'error') return 'unknown';
  return k ? 'available' : 'taken';
}

export function useUsernameAvailability(raw: string) {
  const username = normalizeUsername(raw);
  const [known, setKnown] = useState<Known>({});
  const remember = useCallback((name: string, answer: boolean | 'error') => setKnown((k) => ({ ...k, [name]: answer })), []);
  const pending = !usernameLengthProblem(username) && known[username] === undefined;

  useEffect(() => {
    if (!pending) return;
    const abort = new AbortController();
    const timer = setTimeout(() => {
      askServer(username, abort.signal).then(
        (answer) => remember(username, answer),
        () => undefined, // aborted: a newer name is being typed
      );
    }, PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [username, pending, remember]);

  /** The answer for the current name, asking now when typing has not paused long enough yet. */
  const ensure = useCallback(async (): Promise<UsernameState> => {
    if (!pending) return stateOf(username, known);
    const answer = await askServer(username);
    remember(username, answer);
    return stateOf(username, { [username]: answer });
  }, [pending, username, known, remember]);

  return { username, state: stateOf(username, known), ensure };
}
