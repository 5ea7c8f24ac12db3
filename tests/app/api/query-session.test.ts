// The query cache and the person on the device: what was read for one user is gone when they sign out
// or another signs in, and signing in from a signed-out screen keeps what that screen read.
import { describe, expect, it, vi } from 'vitest';

let listener: ((s: { user_id: number } | null) => void) | null = null;
vi.mock('../../../src/offline/session', () => ({
  getSession: () => null,
  subscribeSession: (l: (s: { user_id: number } | null) => void) => {
    listener = l;
    return () => undefined;
  },
}));
const { queryClient } = await import('../../../src/app/api/query');

const has = (key: string) => queryClient.getQueryData([key]) !== undefined;

describe('the query cache across sessions', () => {
  it('keeps a signed-out read on signing in, drops everything on signing out or on another user', () => {
    queryClient.setQueryData(['invitation'], { company: 'ACME' });
    listener!({ user_id: 7 });
    expect(has('invitation')).toBe(true);

    queryClient.setQueryData(['collaborators'], ['ana']);
    listener!({ user_id: 7 });
    expect(has('collaborators')).toBe(true);

    listener!({ user_id: 8 });
    expect(has('collaborators')).toBe(false);
    expect(has('invitation')).toBe(false);

    queryClient.setQueryData(['grants'], ['app']);
    listener!(null);
    expect(has('grants')).toBe(false);
  });
});
