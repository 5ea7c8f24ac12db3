import { eq } from 'drizzle-orm';
import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MESSAGE_MAX, CHAT_MSG, SUPPORT_HOURS } from '../../../src/domain/chat';
import { MSG } from '../../../src/domain/messages';
import { USER_MESSAGES_PER_MINUTE } from '../../../src/server/chat/routes';
import { chatMessages, mailMessages, users } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

type Signed = Awaited<ReturnType<Harness['signUp']>>;

describe.each(DRIVERS)('support chat (%s)', (driver) => {
  let h: Harness;
  let ana: Signed;
  let beto: Signed;
  let staff: Signed;

  beforeAll(async () => {
    h = await createHarness(driver);
    [ana, beto, staff] = await Promise.all([h.signUp('ana'), h.signUp('beto'), h.signUp('staff')]);
    await h.database.db.update(users).set({ isStaff: true }).where(eq(users.id, staff.userId));
  }, 60_000);
  afterAll(() => h.close());

  const send = (who: Signed, body: unknown) => h.call('POST', '/api/v3/chat/messages', { token: who.token, body });

  it('needs a session', async () => {
    expect((await h.call('GET', '/api/v3/chat')).status).toBe(401);
    expect((await h.call('POST', '/api/v3/chat/messages', { body: { body: 'hola' } })).status).toBe(401);
  });

  it('starts empty, booted with the user e-mail', async () => {
    const r = await h.call('GET', '/api/v3/chat', { token: ana.token });
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual({ email: ana.email, staff: false, conversation: null, messages: [], hasMore: false });
    expect((await h.call('GET', '/api/v3/chat', { token: staff.token })).json.response.staff).toBe(true);
  });

  it('refuses empty and too long messages in Spanish', async () => {
    for (const body of [{ body: '' }, { body: '   \n ' }, {}]) {
      const r = await send(ana, body);
      expect(r.status).toBe(422);
      expect(r.json.errors).toEqual([CHAT_MSG.empty]);
    }
    const long = await send(ana, { body: 'a'.repeat(CHAT_MESSAGE_MAX + 1) });
    expect(long.status).toBe(422);
    expect(long.json.errors[0]).toContain('2000');
    const badId = await send(ana, { id: 'no-es-uuid', body: 'hola' });
    expect(badId.status).toBe(422);
    expect(badId.json.errors).toEqual([CHAT_MSG.badId]);
    // Exactly the limit (an emoji counts as one) is fine, trimmed.
    const edge = await send(ana, { body: `  ${'ñ'.repeat(CHAT_MESSAGE_MAX - 1)}😀  ` });
    expect(edge.status).toBe(201);
    expect([...edge.json.response.message.body]).toHaveLength(CHAT_MESSAGE_MAX);
  });

  it('keeps one open conversation and is idempotent by client id', async () => {
    const id = v7();
    const first = await send(ana, { id, body: '  ¿Cómo facturo?  ' });
    expect(first.status).toBe(201);
    expect(first.json.response.message).toMatchObject({ id, author: 'user', body: '¿Cómo facturo?' });
    const again = await send(ana, { id, body: '¿Cómo facturo?' });
    expect(again.status).toBe(200);
    expect(again.json.response.message.id).toBe(id);
    const mine = await h.call('GET', '/api/v3/chat', { token: ana.token });
    expect(mine.json.response.messages.filter((m: { id: string }) => m.id === id)).toHaveLength(1);
    expect(mine.json.response.conversation.id).toBe(first.json.response.conversation.id);
    // Someone else reusing that id learns nothing about it.
    const stolen = await send(beto, { id, body: 'hola' });
    expect(stolen.status).toBe(422);
  });

  it('staff inbox lists conversations with e-mail and unread; non-staff get 403', async () => {
    await send(beto, { body: 'Necesito ayuda' });
    for (const path of ['/api/v3/support/conversations', `/api/v3/support/conversations/${v7()}`]) {
      const r = await h.call('GET', path, { token: ana.token });
      expect(r.status).toBe(403);
      expect(r.json.errors).toEqual([MSG.forbidden]);
    }
    expect((await h.call('POST', `/api/v3/support/conversations/${v7()}/messages`, { token: ana.token, body: { body: 'x' } })).status).toBe(403);
    const r = await h.call('GET', '/api/v3/support/conversations', { token: staff.token });
    expect(r.status).toBe(200);
    const list = r.json.response.conversations as { email: string; unread: number; lastMessage: string }[];
    expect(list.map((c) => c.email)).toEqual([beto.email, ana.email]); // newest activity first
    expect(list[0]).toMatchObject({ unread: 1, lastMessage: 'Necesito ayuda', status: 'open' });
    expect(list[1]!.unread).toBe(2); // the retried send counted once
  });

  it("staff reply reaches the user's poll, with an unread count, and read clears it", async () => {
    const mine = await h.call('GET', '/api/v3/chat', { token: ana.token });
    const convId = mine.json.response.conversation.id as string;
    const lastId = mine.json.response.messages.at(-1).id as string;
    const known = new Set((mine.json.response.messages as { id: string }[]).map((m) => m.id));
    h.advance(10_000); // beyond the cursor's overlap
    const none = await h.call('GET', `/api/v3/chat?after=${lastId}`, { token: ana.token });
    expect(none.json.response.messages.filter((m: { id: string }) => !known.has(m.id))).toEqual([]);

    const detail = await h.call('GET', `/api/v3/support/conversations/${convId}`, { token: staff.token });
    expect(detail.status).toBe(200);
    expect(detail.json.response.conversation).toMatchObject({ email: ana.email, unread: 2 });
    expect((await h.call('POST', `/api/v3/support/conversations/${convId}/read`, { token: staff.token })).json.response.unread).toBe(0);

    const empty = await h.call('POST', `/api/v3/support/conversations/${convId}/messages`, { token: staff.token, body: { body: ' ' } });
    expect(empty.status).toBe(422);
    expect(empty.json.errors).toEqual([CHAT_MSG.empty]);
    h.advance(1000);
    const reply = await h.call('POST', `/api/v3/support/conversations/${convId}/messages`, { token: staff.token, body: { body: 'Desde el menú Facturar.' } });
    expect(reply.status).toBe(201);

    const fresh = await h.call('GET', `/api/v3/chat?after=${lastId}`, { token: ana.token });
    expect(fresh.json.response.messages.filter((m: { id: string }) => !known.has(m.id))).toEqual([expect.objectContaining({ author: 'staff', body: 'Desde el menú Facturar.' })]);
    expect(fresh.json.response.conversation.unread).toBe(1);
    await h.call('POST', '/api/v3/chat/read', { token: ana.token });
    expect((await h.call('GET', '/api/v3/chat', { token: ana.token })).json.response.conversation.unread).toBe(0);
    // Beto's view has nothing of Ana's.
    const b = await h.call('GET', `/api/v3/chat?after=${lastId}`, { token: beto.token });
    expect(b.json.response.messages.map((m: { body: string }) => m.body)).toEqual(['Necesito ayuda']);
  });

  it('a staff reply reaches the user by e-mail too, once, with the reply and a link that opens the chat', async () => {
    const dora = await h.signUp('dora');
    const mailsTo = async (to: string) => h.database.db.select().from(mailMessages).where(eq(mailMessages.to, to));
    const sent = await send(dora, { body: '¿Puedo facturar una recarga?' });
    expect(await mailsTo(dora.email)).toEqual([]); // her own message mails nobody
    const convId = sent.json.response.conversation.id as string;
    const id = v7();
    const reply = () => h.call('POST', `/api/v3/support/conversations/${convId}/messages`, { token: staff.token, body: { id, body: 'Sí: <b>desde</b> Facturar.\nSaludos.' } });
    expect((await reply()).status).toBe(201);
    expect((await reply()).status).toBe(200); // a retried reply is stored and mailed once
    const mails = await mailsTo(dora.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Soporte de Cuentas Claras te respondió');
    expect(mail.text).toContain('Sí: <b>desde</b> Facturar.\nSaludos.');
    expect(mail.text).toContain(`Te respondemos ${SUPPORT_HOURS}`);
    expect(mail.text).toContain('http://localhost:8080/#/home?soporte=abrir');
    expect(mail.html).toContain('Sí: &lt;b&gt;desde&lt;/b&gt; Facturar.');
    expect(mail.html).toContain('href="http://localhost:8080/#/home?soporte=abrir"');
    // A refused reply (closed conversation) mails nothing.
    await h.call('POST', `/api/v3/support/conversations/${convId}/close`, { token: staff.token });
    const late = await h.call('POST', `/api/v3/support/conversations/${convId}/messages`, { token: staff.token, body: { body: 'Otra cosa' } });
    expect(late.status).toBe(409);
    expect(await mailsTo(dora.email)).toHaveLength(1);
  });

  it("another user's or an unknown conversation is a 404", async () => {
    for (const id of [v7(), 'nada']) {
      expect((await h.call('GET', `/api/v3/support/conversations/${id}`, { token: staff.token })).status).toBe(404);
      expect((await h.call('POST', `/api/v3/support/conversations/${id}/messages`, { token: staff.token, body: { body: 'hola' } })).status).toBe(404);
      expect((await h.call('POST', `/api/v3/support/conversations/${id}/close`, { token: staff.token })).status).toBe(404);
    }
    // The user side is scoped to the caller: Ana's cursor in Beto's request does not leak Ana's messages.
    const anaConv = (await h.call('GET', '/api/v3/chat', { token: ana.token })).json.response;
    const asBeto = await h.call('GET', `/api/v3/chat?before=${anaConv.messages.at(-1).id}`, { token: beto.token });
    expect(asBeto.json.response.messages.every((m: { body: string }) => m.body === 'Necesito ayuda')).toBe(true);
  });

  it('pages back through history', async () => {
    const carla = await h.signUp('carla');
    for (let i = 0; i < 55; i++) {
      h.advance(2_100); // under the per-minute limit
      expect((await send(carla, { body: `mensaje ${i}` })).status).toBe(201);
    }
    const newest = await h.call('GET', '/api/v3/chat', { token: carla.token });
    expect(newest.json.response.messages).toHaveLength(50);
    expect(newest.json.response.hasMore).toBe(true);
    expect(newest.json.response.messages[0].body).toBe('mensaje 5');
    const older = await h.call('GET', `/api/v3/chat?before=${newest.json.response.messages[0].id}`, { token: carla.token });
    expect(older.json.response.messages.map((m: { body: string }) => m.body)).toEqual(['mensaje 0', 'mensaje 1', 'mensaje 2', 'mensaje 3', 'mensaje 4']);
    expect(older.json.response.hasMore).toBe(false);
  });

  it('closing ends the conversation; the next message opens a new one', async () => {
    const conv = (await h.call('GET', '/api/v3/chat', { token: beto.token })).json.response.conversation;
    const closed = await h.call('POST', `/api/v3/support/conversations/${conv.id}/close`, { token: staff.token });
    expect(closed.json.response.status).toBe('closed');
    const late = await h.call('POST', `/api/v3/support/conversations/${conv.id}/messages`, { token: staff.token, body: { body: 'hola' } });
    expect(late.status).toBe(409);
    expect(late.json.errors).toEqual([CHAT_MSG.closed]);
    expect((await h.call('GET', '/api/v3/chat', { token: beto.token })).json.response.conversation.status).toBe('closed');
    const next = await send(beto, { body: 'Otra duda' });
    expect(next.json.response.conversation.id).not.toBe(conv.id);
    const inboxOpen = await h.call('GET', '/api/v3/support/conversations', { token: staff.token });
    expect(inboxOpen.json.response.conversations.filter((c: { email: string }) => c.email === beto.email)).toHaveLength(1);
    const all = await h.call('GET', '/api/v3/support/conversations?status=all', { token: staff.token });
    expect(all.json.response.conversations.filter((c: { email: string }) => c.email === beto.email)).toHaveLength(2);
  });

  it('limits a user to 30 messages a minute', async () => {
    const dani = await h.signUp('dani');
    for (let i = 0; i < USER_MESSAGES_PER_MINUTE; i++) expect((await send(dani, { body: `m${i}` })).status).toBe(201);
    const over = await send(dani, { body: 'uno más' });
    expect(over.status).toBe(429);
    expect(over.json.errors).toEqual([CHAT_MSG.rateLimited]);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    h.advance(61_000);
    expect((await send(dani, { body: 'ya puedo' })).status).toBe(201);
  });

  it('two first messages at once open a single conversation', async () => {
    const eva = await h.signUp('eva');
    const both = await Promise.all([send(eva, { body: 'uno' }), send(eva, { body: 'dos' })]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both[0]!.json.response.conversation.id).toBe(both[1]!.json.response.conversation.id);
  });
});

describe('polling cursor overlap', () => {
  it('still delivers a reply stamped just before the last seen message', async () => {
    const h = await createHarness('pglite');
    try {
      const [u, s] = await Promise.all([h.signUp('fer'), h.signUp('sop')]);
      await h.database.db.update(users).set({ isStaff: true }).where(eq(users.id, s.userId));
      const first = await h.call('POST', '/api/v3/chat/messages', { token: u.token, body: { body: 'hola' } });
      const convId = first.json.response.conversation.id as string;
      h.advance(2_000);
      const second = await h.call('POST', '/api/v3/chat/messages', { token: u.token, body: { body: '¿siguen ahí?' } });
      const cursor = second.json.response.message.id as string;
      // A reply whose transaction started before the user's second message but committed after it.
      await h.database.db.insert(chatMessages).values({ id: v7(), conversationId: convId, author: 'staff', staffUserId: s.userId, body: 'Sí, dime.', createdAt: new Date(Date.now() + 1_000) });
      const polled = await h.call('GET', `/api/v3/chat?after=${cursor}`, { token: u.token });
      expect(polled.json.response.messages.map((m: { body: string }) => m.body)).toContain('Sí, dime.');
      expect(polled.json.response.messages.map((m: { id: string }) => m.id)).not.toContain(cursor);
    } finally {
      await h.close();
    }
  }, 60_000);
});
