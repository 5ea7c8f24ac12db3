// Whether the user name being typed is free (GET /api/v2/username_available), for the sign-up wizard and
// an invitation's sign-up: asked once typing pauses and again, if still unknown, before the form goes on —
// so a taken name is said where it is typed (the wizard's step 1), not after the captcha. The server limits the calls per address; answers are kept per name, so going back costs none.
// A failed ask (offline, 429, server down) is not an answer: it shows as 'unknown' until the name is asked
// again — when the step is left, or when the name comes back after another one was asked about.
import { useCallback, useEffect, useState } from 'react';
import { normalizeUsername, usernameLengthProblem } from '../../domain/username';
import { api } from './client';

/** How long typing must pause before the name is asked about. */
const PAUSE_MS = 600;

export type UsernameState = 'idle' | 'checking' | 'available' | 'taken' | 'unknown';

/** The server's answers per name, and the name whose last ask failed (not cached: it is asked again). */
export interface Answers {
  known: Readonly<Record<string, boolean>>;
  failed: string | null;
}

export const NO_ANSWERS: Answers = { known: {}, failed: null };

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

/**
 * `answers` after the server answered about `name`: a real answer is kept; an error only marks that name as
 * the failed one, which the next answer (for any name) forgets, so the name is asked again when it comes back.
 */
export function withAnswer(answers: Answers, name: string, answer: boolean | 'error'): Answers {
  if (answer === 'error') return { ...answers, failed: name };
  return { known: { ...answers.known, [name]: answer }, failed: null };
}

/** Whether the server has no answer for this (well-formed) name: asked when the step is left. */
export function unanswered(username: string, answers: Answers): boolean {
  return !usernameLengthProblem(username) && answers.known[username] === undefined;
}

/** Whether to ask once typing pauses: unanswered and not the name that just failed (no retry loop while it is shown). */
export function askWhenTypingPauses(username: string, answers: Answers): boolean {
  return unanswered(username, answers) && answers.failed !== username;
}

export function stateOf(username: string, answers: Answers): UsernameState {
  if (usernameLengthProblem(username)) return 'idle';
  const k = answers.known[username];
  if (k !== undefined) return k ? 'available' : 'taken';
  return answers.failed === username ? 'unknown' : 'checking';
}

export function useUsernameAvailability(raw: string) {
  const username = normalizeUsername(raw);
  const [answers, setAnswers] = useState<Answers>(NO_ANSWERS);
  const remember = useCallback((name: string, answer: boolean | 'error') => setAnswers((a) => withAnswer(a, name, answer)), []);
  const pending = askWhenTypingPauses(username, answers);

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

  /** The answer for the current name, asking now (again, after a failed ask) when the server has not answered yet. */
  const ensure = useCallback(async (): Promise<UsernameState> => {
    if (!unanswered(username, answers)) return stateOf(username, answers);
    const answer = await askServer(username);
    remember(username, answer);
    return stateOf(username, withAnswer(answers, username, answer));
  }, [username, answers, remember]);

  return { username, state: stateOf(username, answers), ensure };
}
