// The query cache and the person on the device: what was read for one user is gone when they sign out
// or another signs in, and signing in from a signed-out screen keeps what that screen read.
import { QueryObserver, onlineManager } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/offline/http';

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

describe('the page\'s query client', () => {
  it('is mounted without a provider: a read that failed offline runs again on reconnecting', async () => {
    let calls = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: ['reconnect'],
      queryFn: () => {
        calls++;
        if (calls === 1) throw new ApiError('Sin conexión', 0, true);
        return 'ok';
      },
      retry: false,
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isError).toBe(true));
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('ok'));
    expect(calls).toBe(2);
    stop();
  });
});
