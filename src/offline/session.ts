// The signed-in session (spec §3 Session), kept in idb-keyval and mirrored in memory so the
// router can decide synchronously; read once at start, before the router renders.
import { del, get, set } from 'idb-keyval';
import type { Session } from '../domain/http';
import { kvStore } from './kv-store';

const KEY = 'session';
/** A login without "Recordarme" lasts this long on the device (the server may end it sooner). */
export const SHORT_SESSION_MS = 12 * 60 * 60 * 1000;

export interface StoredSession extends Session {
  /** Epoch ms after which a non-remembered session is dropped; absent when remembered. */
  expiresAt?: number;
}

type Listener = (s: StoredSession | null) => void;

let current: StoredSession | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l(current);
}

function isSession(v: unknown): v is StoredSession {
  if (!v || typeof v !== 'object') return false;
  const s = v as Partial<StoredSession>;
  return typeof s.token === 'string' && s.token.length > 0 && typeof s.username === 'string';
}

/** Reads the stored session into memory; an expired or malformed one is removed. */
export async function loadSession(now: number = Date.now()): Promise<StoredSession | null> {
  let stored: unknown;
  try {
    stored = await get(KEY, kvStore());
  } catch {
    stored = undefined; // storage blocked (private mode): behave as signed out
  }
  if (isSession(stored) && (stored.expiresAt === undefined || stored.expiresAt > now)) {
    current = stored;
  } else {
    current = null;
    if (stored !== undefined) await del(KEY, kvStore()).catch(() => undefined);
  }
  emit();
  return current;
}

export function getSession(): StoredSession | null {
  return current;
}

export function hasSession(): boolean {
  return current !== null;
}

const OWNER_KEY = 'owner';

/**
 * Whose data this device holds. A 401 clears the session but keeps the outbox for the same person
 * to send after signing in again; when someone else signs in, nothing of the previous user may
 * stay (or be sent with the new user's token), so the device is wiped first.
 */
async function claimDevice(userId: number): Promise<void> {
  const owner = await get<number>(OWNER_KEY, kvStore()).catch(() => undefined);
  if (owner !== undefined && owner !== userId) {
    const { wipeLocalData } = await import('./wipe');
    await wipeLocalData();
  }
  await set(OWNER_KEY, userId, kvStore());
}

export async function saveSession(session: Session, remember: boolean, now: number = Date.now()): Promise<StoredSession> {
  await claimDevice(session.user_id);
  const stored: StoredSession = {
    token: session.token,
    user_id: session.user_id,
    email: session.email,
    username: session.username,
    ...(remember ? {} : { expiresAt: now + SHORT_SESSION_MS }),
  };
  current = stored;
  emit();
  await set(KEY, stored, kvStore());
  return stored;
}

export async function clearSession(): Promise<void> {
  current = null;
  emit();
  await del(KEY, kvStore()).catch(() => undefined);
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
