// The stored session as React state: the OAuth screen lives outside the signed-in layout and signs in by itself.
import { useEffect, useState } from 'react';
import { getSession, subscribeSession, type StoredSession } from '../../offline/session';

export function useSession(): StoredSession | null {
  const [session, setSession] = useState(getSession);
  useEffect(() => subscribeSession(setSession), []);
  return session;
}
