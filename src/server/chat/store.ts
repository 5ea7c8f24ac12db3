// Support chat persistence (DESIGN §2: a built-in inbox in our own database). One open conversation per
// user; a message on a closed one starts a new conversation. Message ids come from the client (UUIDv7)
// so a retried send is stored once.
import { and, asc, desc, eq, gte, lt, ne, or, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids';
import type { ChatAuthor, ChatMessage } from '../../domain/chat';
import type { Db } from '../db/client';
import { chatConversations, chatMessages, users } from '../db/schema';

export const PAGE_SIZE = 50;
/** How far before the polling cursor `after` looks again. */
export const AFTER_OVERLAP_MS = 5_000;

type ConversationRow = typeof chatConversations.$inferSelect;
type MessageRow = typeof chatMessages.$inferSelect;

export const messageView = (m: MessageRow): ChatMessage => ({
  id: m.id,
  author: m.author as ChatAuthor,
  body: m.body,
  createdAt: m.createdAt.toISOString(),
});

/** The user's most recent conversation (open or closed), so a just-closed one still shows its history. */
export async function latestConversation(db: Db, userId: number): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(chatConversations)
    .where(eq(chatConversations.userId, userId))
    .orderBy(desc(chatConversations.createdAt), desc(chatConversations.id))
    .limit(1);
  return row;
}

export async function conversationById(db: Db, id: string): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(chatConversations).where(eq(chatConversations.id, id));
  return row;
}

/**
 * A page of messages in time order. `after`: only those newer than that message (polling);
 * `before`: the page just older than it (scrolling back). Neither: the newest page.
 */
export async function messagesPage(
  db: Db,
  conversationId: string,
  cursor: { after?: string; before?: string },
  limit = PAGE_SIZE,
): Promise<{ messages: ChatMessage[]; hasMore: boolean }> {
  const mine = eq(chatMessages.conversationId, conversationId);
  const anchorId = cursor.after ?? cursor.before;
  let anchor: MessageRow | undefined;
  if (anchorId) [anchor] = await db.select().from(chatMessages).where(and(mine, eq(chatMessages.id, anchorId)));
  if (cursor.after && anchor) {
    // From a little before the cursor: a reply whose transaction committed after a later message was
    // seen still arrives (the client merges by id, so repeats are harmless).
    const since = new Date(anchor.createdAt.getTime() - AFTER_OVERLAP_MS);
    const newer = and(gte(chatMessages.createdAt, since), ne(chatMessages.id, anchor.id));
    const rows = await db.select().from(chatMessages).where(and(mine, newer)).orderBy(asc(chatMessages.createdAt), asc(chatMessages.id)).limit(limit);
    return { messages: rows.map(messageView), hasMore: false };
  }
  // An unknown cursor (another conversation, a wiped one) answers the newest page.
  const older =
    cursor.before && anchor
      ? and(mine, or(lt(chatMessages.createdAt, anchor.createdAt), and(eq(chatMessages.createdAt, anchor.createdAt), lt(chatMessages.id, anchor.id))))
      : mine;
  const rows = await db.select().from(chatMessages).where(older).orderBy(desc(chatMessages.createdAt), desc(chatMessages.id)).limit(limit + 1);
  return { messages: rows.slice(0, limit).reverse().map(messageView), hasMore: rows.length > limit };
}

export type PostOutcome = { kind: 'ok'; conversation: ConversationRow; message: ChatMessage; created: boolean } | { kind: 'foreign' };

/**
 * The user's message: into their open conversation, or a new one. The user's row is locked for the
 * transaction so two first messages sent at once do not open two conversations.
 */
export async function postUserMessage(db: Db, userId: number, id: string | undefined, body: string, now: Date): Promise<PostOutcome> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const messageId = id ?? newId();
    const [existing] = await tx.select().from(chatMessages).where(eq(chatMessages.id, messageId));
    if (existing) {
      const conv = await conversationById(tx, existing.conversationId);
      if (!conv || conv.userId !== userId || existing.author !== 'user') return { kind: 'foreign' } as const;
      return { kind: 'ok', conversation: conv, message: messageView(existing), created: false } as const;
    }
    let [conv] = await tx
      .select()
      .from(chatConversations)
      .where(and(eq(chatConversations.userId, userId), eq(chatConversations.status, 'open')))
      .orderBy(desc(chatConversations.createdAt))
      .limit(1);
    if (!conv) {
      [conv] = await tx.insert(chatConversations).values({ id: newId(), userId, status: 'open', lastMessageAt: now, createdAt: now }).returning();
    }
    const [msg] = await tx.insert(chatMessages).values({ id: messageId, conversationId: conv!.id, author: 'user', body, createdAt: now }).returning();
    const [updated] = await tx
      .update(chatConversations)
      .set({ lastMessageAt: now, unreadByStaff: sql`${chatConversations.unreadByStaff} + 1` })
      .where(eq(chatConversations.id, conv!.id))
      .returning();
    return { kind: 'ok', conversation: updated!, message: messageView(msg!), created: true } as const;
  });
}

export type StaffPostOutcome = PostOutcome | { kind: 'missing' } | { kind: 'closed' };

export async function postStaffMessage(db: Db, staffUserId: number, conversationId: string, id: string | undefined, body: string, now: Date): Promise<StaffPostOutcome> {
  return db.transaction(async (tx) => {
    const [conv] = await tx.select().from(chatConversations).where(eq(chatConversations.id, conversationId)).for('update');
    if (!conv) return { kind: 'missing' } as const;
    const messageId = id ?? newId();
    const [existing] = await tx.select().from(chatMessages).where(eq(chatMessages.id, messageId));
    if (existing) {
      if (existing.conversationId !== conversationId || existing.author !== 'staff') return { kind: 'foreign' } as const;
      return { kind: 'ok', conversation: conv, message: messageView(existing), created: false } as const;
    }
    if (conv.status !== 'open') return { kind: 'closed' } as const;
    const [msg] = await tx.insert(chatMessages).values({ id: messageId, conversationId, author: 'staff', staffUserId, body, createdAt: now }).returning();
    const [updated] = await tx
      .update(chatConversations)
      .set({ lastMessageAt: now, unreadByUser: sql`${chatConversations.unreadByUser} + 1`, unreadByStaff: 0 })
      .where(eq(chatConversations.id, conversationId))
      .returning();
    return { kind: 'ok', conversation: updated!, message: messageView(msg!), created: true } as const;
  });
}

export interface InboxRow {
  id: string;
  userId: number;
  email: string;
  status: string;
  unread: number;
  lastMessageAt: string;
  lastMessage: string | null;
}

/** The staff inbox: newest activity first, with the user's e-mail and the last message's first words. */
export async function inbox(db: Db, status: 'open' | 'closed' | 'all', limit: number, offset: number): Promise<InboxRow[]> {
  const last = sql<string | null>`(select ${chatMessages.body} from ${chatMessages} where ${chatMessages.conversationId} = ${chatConversations.id} order by ${chatMessages.createdAt} desc, ${chatMessages.id} desc limit 1)`;
  const rows = await db
    .select({
      id: chatConversations.id,
      userId: chatConversations.userId,
      email: users.email,
      status: chatConversations.status,
      unread: chatConversations.unreadByStaff,
      lastMessageAt: chatConversations.lastMessageAt,
      lastMessage: last,
    })
    .from(chatConversations)
    .innerJoin(users, eq(users.id, chatConversations.userId))
    .where(status === 'all' ? undefined : eq(chatConversations.status, status))
    .orderBy(desc(chatConversations.lastMessageAt), desc(chatConversations.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({ ...r, lastMessageAt: r.lastMessageAt.toISOString(), lastMessage: r.lastMessage ? r.lastMessage.slice(0, 140) : null }));
}
