// The widget's in-memory conversation: polling merges, sending, and forgetting on logout.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { method: string; path: string; arg?: unknown }[] = [];
const replies: unknown[] = [];
let sessionListener: ((s: { user_id: number } | null) => void) | null = null;

vi.mock('../../../src/app/api/client', () => ({
  api: {
    get: async (path: string, arg?: unknown) => {
      calls.push({ method: 'get', path, arg });
      return replies.shift();
    },
    post: async (path: string, arg?: unknown) => {
      calls.push({ method: 'post', path, arg });
      return replies.shift();
    },
  },
}));
vi.mock('../../../src/offline/session', () => ({
  getSession: () => ({ user_id: 1 }),
  subscribeSession: (l: (s: { user_id: number } | null) => void) => {
    sessionListener = l;
    return () => undefined;
  },
}));

const store = await import('../../../src/app/chat/chat-store');
const { onOpenSupportChat, openSupportChat } = await import('../../../src/app/layout/open-chat');

const m = (id: string, author: 'user' | 'staff', sec: number) => ({ id, author, body: id, createdAt: new Date(Date.UTC(2026, 10, 23, 10, 0, sec)).toISOString() });
const conv = { id: 'c1', status: 'open' as const, unread: 0 };

beforeEach(() => {
  calls.length = 0;
  replies.length = 0;
  store.resetChat();
});

describe('chat store', () => {
  it('loads the newest page, then asks only for what is after the last message', async () => {
    replies.push({ email: 'ana@example.com', staff: false, conversation: conv, messages: [m('a', 'user', 0)], hasMore: true });
    await store.refreshChat();
    expect(calls[0]).toEqual({ method: 'get', path: '/api/v3/chat', arg: {} });
    expect(store.getChatState()).toMatchObject({ loaded: true, email: 'ana@example.com', hasMore: true });
    replies.push({ email: 'ana@example.com', staff: false, conversation: { ...conv, unread: 1 }, messages: [m('a', 'user', 0), m('b', 'staff', 5)], hasMore: false });
    await store.refreshChat();
    expect(calls[1]).toEqual({ method: 'get', path: '/api/v3/chat', arg: { after: 'a' } });
    const s = store.getChatState();
    expect(s.messages.map((x) => x.id)).toEqual(['a', 'b']);
    expect(s.conversation?.unread).toBe(1);
    expect(s.hasMore).toBe(true); // a poll does not forget there is older history
    replies.push({ unread: 0 });
    await store.markChatRead();
    expect(calls[2]).toMatchObject({ method: 'post', path: '/api/v3/chat/read' });
    expect(store.getChatState().conversation?.unread).toBe(0);
  });

  it('sends with the given id; a new conversation replaces the closed one', async () => {
    replies.push({ email: 'ana@example.com', staff: false, conversation: { ...conv, status: 'closed' }, messages: [m('a', 'user', 0)], hasMore: false });
    await store.refreshChat();
    replies.push({ conversation: { id: 'c2', status: 'open', unread: 0 }, message: m('n', 'user', 9) });
    await store.sendChatMessage('n', 'hola');
    expect(calls[1]).toEqual({ method: 'post', path: '/api/v3/chat/messages', arg: { id: 'n', body: 'hola' } });
    expect(store.getChatState().messages.map((x) => x.id)).toEqual(['n']);
    expect(store.getChatState().conversation?.id).toBe('c2');
  });

  it('forgets the conversation and a pending open request when the user signs out', async () => {
    replies.push({ email: 'ana@example.com', staff: true, conversation: conv, messages: [m('a', 'user', 0)], hasMore: false });
    await store.refreshChat();
    expect(store.getChatState().staff).toBe(true);
    openSupportChat('pendiente');
    sessionListener?.(null);
    expect(store.getChatState()).toMatchObject({ loaded: false, email: '', staff: false, messages: [] });
    const seen: unknown[] = [];
    const off = onOpenSupportChat((r) => seen.push(r));
    expect(seen).toEqual([]);
    off();
  });

  it('drops an answer that arrives after the reset', async () => {
    let release: (v: unknown) => void = () => undefined;
    replies.push(new Promise((r) => (release = r)));
    const pending = store.refreshChat();
    store.resetChat();
    release({ email: 'x@example.com', staff: false, conversation: conv, messages: [m('a', 'user', 0)], hasMore: false });
    await pending;
    expect(store.getChatState().loaded).toBe(false);
  });
});
