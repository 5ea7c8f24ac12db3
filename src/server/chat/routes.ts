// Support chat over HTTP. The user's side: /api/v3/chat (their latest conversation, paged;
// `after` for polling), /chat/messages and /chat/read. The staff inbox: /api/v3/support/… (is_staff only).
// New replies reach the widget by polling `GET /api/v3/chat?after=<last id>` (see the widget for why).
import { eq } from 'drizzle-orm';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { CHAT_MSG, ChatMessageBody, chatBodyError } from '../../domain/chat';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { chatConversations, users } from '../db/schema';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { IpLimiter } from '../lib/ip-limiter';
import { conversationById, inbox, latestConversation, messagesPage, postStaffMessage, postUserMessage } from './store';

/** Messages a user may send per minute: plenty for a person typing, a wall for a script. */
export const USER_MESSAGES_PER_MINUTE = 30;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INBOX_PAGE = 50;

function parseMessage(input: unknown): { id?: string; body: string } {
  const body = parseWith(ChatMessageBody, input, 422);
  const problem = chatBodyError(body.body);
  if (problem) throw fail(422, problem);
  return body;
}

function cursorOf(c: Context<AppEnv>): { after?: string; before?: string } {
  const after = c.req.query('after');
  const before = c.req.query('before');
  return {
    ...(after && UUID_RE.test(after) ? { after } : {}),
    ...(before && UUID_RE.test(before) ? { before } : {}),
  };
}

export function chatRoutes(s: Services, _deps?: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const limiter = new IpLimiter(USER_MESSAGES_PER_MINUTE, 60_000);

  const staffOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    const [user] = await s.db.select({ isStaff: users.isStaff }).from(users).where(eq(users.id, caller(c).userId));
    if (!user?.isStaff) throw fail(403, MSG.forbidden);
    return next();
  };

  /** A staff-side conversation from the path; a malformed or unknown id is the same 404. */
  const pathConversation = async (c: Context<AppEnv>) => {
    const id = c.req.param('id') ?? '';
    const conv = UUID_RE.test(id) ? await conversationById(s.db, id) : undefined;
    if (!conv) throw fail(404, MSG.notFound);
    return conv;
  };

  app.get('/api/v3/chat', auth, async (c) => {
    const { userId } = caller(c);
    const [user] = await s.db.select({ email: users.email, isStaff: users.isStaff }).from(users).where(eq(users.id, userId));
    const conv = await latestConversation(s.db, userId);
    const page = conv ? await messagesPage(s.db, conv.id, cursorOf(c)) : { messages: [], hasMore: false };
    return ok(c, {
      email: user?.email ?? '',
      // Lets the app show the staff inbox entry without another call.
      staff: user?.isStaff ?? false,
      conversation: conv ? { id: conv.id, status: conv.status, unread: conv.unreadByUser } : null,
      ...page,
    });
  });

  app.post('/api/v3/chat/messages', auth, async (c) => {
    const { userId } = caller(c);
    const msg = parseMessage(c.get('body'));
    const now = s.clock();
    const key = String(userId);
    if (!limiter.take(key, now.getTime())) {
      throw fail(429, CHAT_MSG.rateLimited, { 'Retry-After': String(limiter.retryAfter(key, now.getTime())) });
    }
    const out = await postUserMessage(s.db, userId, msg.id, msg.body, now);
    // A client id already used by someone else's message is not theirs to see.
    if (out.kind === 'foreign') throw fail(422, CHAT_MSG.badId);
    const conv = out.conversation;
    return ok(c, { conversation: { id: conv.id, status: conv.status, unread: conv.unreadByUser }, message: out.message }, out.created ? 201 : 200);
  });

  app.post('/api/v3/chat/read', auth, async (c) => {
    const conv = await latestConversation(s.db, caller(c).userId);
    if (conv && conv.unreadByUser > 0) await s.db.update(chatConversations).set({ unreadByUser: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { unread: 0 });
  });

  app.get('/api/v3/support/conversations', auth, staffOnly, async (c) => {
    const raw = c.req.query('status') ?? 'open';
    const status = raw === 'closed' || raw === 'all' ? raw : 'open';
    const page = Math.max(0, Math.min(10_000, Number.parseInt(c.req.query('page') ?? '0', 10) || 0));
    const rows = await inbox(s.db, status, INBOX_PAGE + 1, page * INBOX_PAGE);
    return ok(c, { conversations: rows.slice(0, INBOX_PAGE), hasMore: rows.length > INBOX_PAGE });
  });

  app.get('/api/v3/support/conversations/:id', auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    const [user] = await s.db.select({ email: users.email }).from(users).where(eq(users.id, conv.userId));
    const page = await messagesPage(s.db, conv.id, cursorOf(c));
    return ok(c, {
      conversation: { id: conv.id, status: conv.status, unread: conv.unreadByStaff, email: user?.email ?? '', lastMessageAt: conv.lastMessageAt.toISOString() },
      ...page,
    });
  });

  app.post('/api/v3/support/conversations/:id/messages', auth, staffOnly, async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw fail(404, MSG.notFound);
    const msg = parseMessage(c.get('body'));
    const out = await postStaffMessage(s.db, caller(c).userId, id, msg.id, msg.body, s.clock());
    if (out.kind === 'missing') throw fail(404, MSG.notFound);
    if (out.kind === 'closed') throw fail(409, CHAT_MSG.closed);
    if (out.kind === 'foreign') throw fail(422, CHAT_MSG.badId);
    return ok(c, { message: out.message }, out.created ? 201 : 200);
  });

  app.post('/api/v3/support/conversations/:id/read', auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    await s.db.update(chatConversations).set({ unreadByStaff: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { unread: 0 });
  });

  app.post('/api/v3/support/conversations/:id/close', auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    await s.db.update(chatConversations).set({ status: 'closed', unreadByStaff: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { id: conv.id, status: 'closed' });
  });

  return app;
}

