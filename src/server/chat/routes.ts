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
import { fail } from '../http/errors';
import { supportChatLink, supportReplyMail } from './reply-mail';
import { conversationById, inbox, latestConversation, messagesPage, postStaffMessage, postUserMessage } from './store';
import * as v from 'valibot';
import { defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const Message = v.object({ id: v.string(), author: v.picklist(['user', 'staff']), body: v.string(), createdAt: v.string() });
const Conversation = v.object({ id: v.string(), status: v.picklist(['open', 'closed']), unread: v.number() });
const Page = { messages: v.array(Message), hasMore: v.boolean() };
const cursor = { after: 'Id de mensaje: sólo los más nuevos (para consultar respuestas nuevas)', before: 'Id de mensaje: la página anterior a él' };

/** Messages a user may send per minute: plenty for a person typing, a wall for a script. */
export const USER_MESSAGES_PER_MINUTE = 30;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INBOX_PAGE = 50;

/** A message as posted: the shape, then its text (empty or too long), each answering 422 with its message. */
const PostedMessage = v.pipe(
  ChatMessageBody,
  v.check((m) => chatBodyError(m.body) === null, (issue) => chatBodyError((issue.input as { body: string }).body) ?? CHAT_MSG.empty),
);

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
  const limiter = s.limits('chat-messages', USER_MESSAGES_PER_MINUTE, 60_000);

  const staffOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    const [user] = await s.db.select({ isStaff: users.isStaff }).from(users).where(eq(users.id, caller(c).userId));
    if (!user?.isStaff) throw fail(403, MSG.forbidden);
    return next();
  };

  /** The reply by e-mail too (the widget says it will arrive there). A mail failure does not undo the stored reply. */
  const mailReply = async (userId: number, reply: string) => {
    const [user] = await s.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user?.email) return;
    await s.mailer
      .send(supportReplyMail(user.email, reply, supportChatLink(s.config.publicUrl)))
      .catch((err: unknown) => console.error('[chat] respuesta sin correo:', err instanceof Error ? err.message : String(err)));
  };

  /** A staff-side conversation from the path; a malformed or unknown id is the same 404. */
  const pathConversation = async (c: Context<AppEnv>) => {
    const id = c.req.param('id') ?? '';
    const conv = UUID_RE.test(id) ? await conversationById(s.db, id) : undefined;
    if (!conv) throw fail(404, MSG.notFound);
    return conv;
  };

  defineRoute(app, {
    method: 'get', path: '/api/v3/chat', tag: 'Soporte', auth: true, params: cursor,
    summary: 'Mi conversación de soporte más reciente (o null), mi correo y si soy personal de soporte (`staff`), con sus mensajes en orden, 50 por página; el widget la consulta con `after` para recibir respuestas',
    response: v.object({ email: v.string(), staff: v.boolean(), conversation: v.nullable(Conversation), ...Page }),
  }, auth, async (c) => {
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

  defineRoute(app, {
    method: 'post', path: '/api/v3/chat/messages', tag: 'Soporte', auth: true, body: PostedMessage, bodyStatus: 422, status: 201, errors: [422, 429],
    summary: 'Enviar un mensaje a soporte (1 a 2000 caracteres; `id` UUIDv7 opcional hace idempotente el envío); abre una conversación si no hay una abierta. 30 por minuto',
    response: v.object({ conversation: Conversation, message: Message }),
  }, auth, async (c, { body: msg }) => {
    const { userId } = caller(c);
    const now = s.clock();
    const key = String(userId);
    if (!(await limiter.take(key, now.getTime()))) {
      throw fail(429, CHAT_MSG.rateLimited, { 'Retry-After': String(limiter.retryAfter(key, now.getTime())) });
    }
    const out = await postUserMessage(s.db, userId, msg.id, msg.body, now);
    // A client id already used by someone else's message is not theirs to see.
    if (out.kind === 'foreign') throw fail(422, CHAT_MSG.badId);
    const conv = out.conversation;
    return ok(c, { conversation: { id: conv.id, status: conv.status, unread: conv.unreadByUser }, message: out.message }, out.created ? 201 : 200);
  });

  defineRoute(app, { method: 'post', path: '/api/v3/chat/read', tag: 'Soporte', auth: true, summary: 'Marcar como leídas las respuestas de soporte', response: v.object({ unread: v.number() }) }, auth, async (c) => {
    const conv = await latestConversation(s.db, caller(c).userId);
    if (conv && conv.unreadByUser > 0) await s.db.update(chatConversations).set({ unreadByUser: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { unread: 0 });
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/support/conversations', tag: 'Soporte (personal)', auth: true, errors: [403],
    params: { status: '`open` (por omisión), `closed` o `all`', page: 'Página (50 por página) desde 0' },
    summary: 'Bandeja de soporte: conversaciones con actividad más reciente primero, correo del usuario y mensajes sin leer',
    response: v.object({
        conversations: v.array(v.object({ id: v.string(), userId: v.number(), email: v.string(), status: v.string(), unread: v.number(), lastMessageAt: v.string(), lastMessage: v.nullable(v.string()) })),
        hasMore: v.boolean(),
      }),
  }, auth, staffOnly, async (c) => {
    const raw = c.req.query('status') ?? 'open';
    const status = raw === 'closed' || raw === 'all' ? raw : 'open';
    const page = Math.max(0, Math.min(10_000, Number.parseInt(c.req.query('page') ?? '0', 10) || 0));
    const rows = await inbox(s.db, status, INBOX_PAGE + 1, page * INBOX_PAGE);
    return ok(c, { conversations: rows.slice(0, INBOX_PAGE), hasMore: rows.length > INBOX_PAGE });
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/support/conversations/{id}', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación', ...cursor },
    summary: 'Una conversación con sus mensajes', response: v.object({ conversation: v.object({ id: v.string(), status: v.string(), unread: v.number(), email: v.string(), lastMessageAt: v.string() }), ...Page }),
  }, auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    const [user] = await s.db.select({ email: users.email }).from(users).where(eq(users.id, conv.userId));
    const page = await messagesPage(s.db, conv.id, cursorOf(c));
    return ok(c, {
      conversation: { id: conv.id, status: conv.status, unread: conv.unreadByStaff, email: user?.email ?? '', lastMessageAt: conv.lastMessageAt.toISOString() },
      ...page,
    });
  });

  defineRoute(app, {
    method: 'post', path: '/api/v3/support/conversations/{id}/messages', tag: 'Soporte (personal)', auth: true, body: PostedMessage, bodyStatus: 422, status: 201, errors: [403, 404, 409, 422],
    params: { id: '*Id de la conversación' }, summary: 'Responder al usuario (la conversación debe estar abierta); la respuesta también le llega por correo con un enlace al chat', response: v.object({ message: Message }),
    // A malformed conversation id is a 404 whatever the body.
    guard: (c) => {
      const id = pathParam(c, 'id');
      if (!UUID_RE.test(id)) throw fail(404, MSG.notFound);
      return id;
    },
  }, auth, staffOnly, async (c, { body: msg, guard: id }) => {
    const out = await postStaffMessage(s.db, caller(c).userId, id, msg.id, msg.body, s.clock());
    if (out.kind === 'missing') throw fail(404, MSG.notFound);
    if (out.kind === 'closed') throw fail(409, CHAT_MSG.closed);
    if (out.kind === 'foreign') throw fail(422, CHAT_MSG.badId);
    if (out.created) await mailReply(out.conversation.userId, out.message.body);
    return ok(c, { message: out.message }, out.created ? 201 : 200);
  });

  defineRoute(app, { method: 'post', path: '/api/v3/support/conversations/{id}/read', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación' }, summary: 'Marcar como leídos los mensajes del usuario', response: v.object({ unread: v.number() }) }, auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    await s.db.update(chatConversations).set({ unreadByStaff: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { unread: 0 });
  });

  defineRoute(app, { method: 'post', path: '/api/v3/support/conversations/{id}/close', tag: 'Soporte (personal)', auth: true, errors: [403, 404], params: { id: '*Id de la conversación' }, summary: 'Cerrar la conversación', response: v.object({ id: v.string(), status: v.string() }) }, auth, staffOnly, async (c) => {
    const conv = await pathConversation(c);
    await s.db.update(chatConversations).set({ status: 'closed', unreadByStaff: 0 }).where(eq(chatConversations.id, conv.id));
    return ok(c, { id: conv.id, status: 'closed' });
  });

  return app;
}

