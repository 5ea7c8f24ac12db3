import { afterEach, describe, expect, it } from 'vitest';
import type { AppDb } from '../../src/offline/db';
import { MSG } from '../../src/domain/messages';
import { BACKOFF_BASE_MS, LEASE_MS, backoffMs } from '../../src/domain/outbox-ops';
import { drainOutbox, type DrainDeps } from '../../src/offline/drain';
import { attachTicketImage } from '../../src/offline/operations/ticket-image';
import { createManualTicket } from '../../src/offline/operations/ticket-create';
import { deleteTickets } from '../../src/offline/operations/ticket-delete';
import { setTicketCategory, setTicketNote } from '../../src/offline/operations/ticket-update';
import { listOutbox } from '../../src/offline/outbox';
import {
  CATEGORIES, CTX, apiTicket, expenseForm, forTicket, freshDb, isCreate, isUpdate, json, png, scriptedFetch,
} from './outbox-fixtures';

let db: AppDb;
afterEach(async () => {
  await db.delete();
});

const T0 = 1_800_000_000_000;

function deps(fetch: DrainDeps['fetch'], over: Partial<DrainDeps> = {}): DrainDeps {
  return { db, fetch, getToken: () => 'tok-1', now: () => T0, random: () => 0.5, baseUrl: 'http://api.test', ...over };
}

describe('drainOutbox', () => {
  it('sends in seq order with the token and the operation id as Idempotency-Key, then empties the outbox', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    const b = await createManualTicket(db, expenseForm({ amount: '7' }), CTX);
    await setTicketNote(db, a, 'nota');
    const ops = await listOutbox(db);
    const api = scriptedFetch();
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 3, retried: 0, parked: 0, paused: false, remaining: 0, nextAttemptAt: null });
    expect(api.sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /form/ticket_create?format=json', 'POST /form/ticket_create?format=json', 'PUT /api/v2/update_ticket',
    ]);
    expect(api.sent.map((s) => s.headers.get('idempotency-key'))).toEqual(ops.map((o) => o.opId));
    expect(api.sent.every((s) => s.headers.get('x-access-token') === 'tok-1')).toBe(true);
    expect((api.sent[0]!.body as { additional_info: { ticket_id: string } }).additional_info.ticket_id).toBe(a);
    expect((await db.tickets.get(a))).toMatchObject({ syncState: 'synced', pendingOps: 0, syncedAt: T0, note: 'nota' });
    expect((await db.tickets.get(b))?.syncState).toBe('synced');
  });

  it('head-of-line per ticket: a ticket whose create must wait holds its later operations; others proceed', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    const b = await createManualTicket(db, expenseForm({ amount: '7' }), CTX);
    await setTicketNote(db, a, 'nota a');
    await setTicketNote(db, b, 'nota b');
    const api = scriptedFetch();
    api.on((s) => isCreate(s) && forTicket(a)(s), json(503, { errors: [MSG.generic] }));
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 2, retried: 1, remaining: 2 });
    expect(api.sent.filter((s) => isUpdate(s)).map((s) => (s.body as { ticket: { notes: string } }).ticket.notes)).toEqual(['nota b']);
    expect((await db.tickets.get(a))).toMatchObject({ syncState: 'pending', pendingOps: 2 });
    // Once due, the create goes first and then the note.
    const later = await drainOutbox(deps(api.fetch, { now: () => T0 + 10 * 60_000 }));
    expect(later).toMatchObject({ sent: 2, remaining: 0 });
    expect(api.sent.slice(-2).map((s) => s.path)).toEqual(['/form/ticket_create?format=json', '/api/v2/update_ticket']);
  });

  it('backs off with jitter inside [ceiling/2, ceiling], growing per attempt, honouring Retry-After', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    api.on(isCreate, json(500, { errors: [MSG.generic] }), false);
    for (let attempt = 1; attempt <= 4; attempt++) {
      const now = T0 + attempt * 3_600_000;
      await drainOutbox(deps(api.fetch, { now: () => now, random: () => 0 }));
      const [op] = await listOutbox(db);
      const ceiling = BACKOFF_BASE_MS * 2 ** (attempt - 1);
      expect(op).toMatchObject({ attempts: attempt, status: 'pending', lastStatus: 500, lastError: MSG.generic });
      expect(op!.nextAttemptAt - now).toBe(ceiling / 2);
    }
    expect(backoffMs(3, () => 1)).toBe(BACKOFF_BASE_MS * 4);
    expect(backoffMs(30, () => 1)).toBe(5 * 60_000);

    const api2 = scriptedFetch();
    api2.on(isCreate, json(429, { errors: ['lento'] }, { 'Retry-After': '120' }));
    const now = T0 + 10 * 3_600_000;
    await drainOutbox(deps(api2.fetch, { now: () => now }));
    expect((await listOutbox(db))[0]!.nextAttemptAt).toBe(now + 120_000);
    // Not due yet: nothing is sent; due: it goes.
    await drainOutbox(deps(api2.fetch, { now: () => now + 60_000 }));
    expect(api2.sent).toHaveLength(1);
    await drainOutbox(deps(api2.fetch, { now: () => now + 120_000 }));
    expect(api2.sent).toHaveLength(2);
    expect(await db.outbox.count()).toBe(0);
  });

  it('the same operation keeps its Idempotency-Key on every retry', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const [op] = await listOutbox(db);
    const api = scriptedFetch();
    api.on(isCreate, 'network');
    api.on(isCreate, json(502, {}));
    const r1 = await drainOutbox(deps(api.fetch));
    expect(r1).toMatchObject({ retried: 1, offline: true });
    await drainOutbox(deps(api.fetch, { now: () => T0 + 3_600_000 }));
    await drainOutbox(deps(api.fetch, { now: () => T0 + 7_200_000 }));
    expect(api.sent.map((s) => s.headers.get('idempotency-key'))).toEqual([op!.opId, op!.opId, op!.opId]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('a network error stops the pass (probably offline): later tickets are not tried', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    await createManualTicket(db, expenseForm({ amount: '2' }), CTX);
    const api = scriptedFetch();
    api.on(() => true, 'network');
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 0, retried: 1, offline: true, remaining: 2 });
    expect(api.sent).toHaveLength(1);
    // "Back online" sends the waiting one without waiting its backoff.
    const r2 = await drainOutbox(deps(api.fetch, { trigger: 'reconnected' }));
    expect(r2).toMatchObject({ sent: 2, remaining: 0 });
  });

  it('back online, what failed only for want of a network starts its backoff over; a server error keeps its wait', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    await setTicketNote(db, a, 'Despensa de la semana');
    const b = await createManualTicket(db, expenseForm({ amount: '2' }), CTX);
    // An hour offline: the first create failed six times with no answer; the other one's server said 503 five times.
    const [createA, , createB] = await listOutbox(db);
    await db.outbox.update(createA!.seq!, { attempts: 6, nextAttemptAt: T0 + 60_000, lastStatus: null });
    await db.outbox.update(createB!.seq!, { attempts: 5, nextAttemptAt: T0 + 30_000, lastStatus: 503, lastError: MSG.generic });
    // Reconnecting, the network is not quite there for the first request.
    const api = scriptedFetch();
    api.on(isCreate, 'network');
    const r = await drainOutbox(deps(api.fetch, { trigger: 'reconnected' }));
    expect(r).toMatchObject({ sent: 0, retried: 1, offline: true, remaining: 3 });
    const [waitingA, note, waitingB] = await listOutbox(db);
    // A seventh doubling would have held the ticket, and the note behind it, for 64-128 s. The count of
    // tries stays: one of them may have reached the server.
    expect(waitingA).toMatchObject({ attempts: 7, backoffAttempts: 1, nextAttemptAt: T0 + backoffMs(1, () => 0.5) });
    expect(note).toMatchObject({ kind: 'ticket.update', attempts: 0 });
    expect(waitingB).toMatchObject({ attempts: 5, lastStatus: 503 });
    // A couple of seconds later the create and its note go, in order; the 503 one still waits.
    const r2 = await drainOutbox(deps(api.fetch, { now: () => T0 + BACKOFF_BASE_MS }));
    expect(r2).toMatchObject({ sent: 2, remaining: 1 });
    expect(api.sent.slice(1).map((x) => x.path.split('?')[0])).toEqual(['/form/ticket_create', '/api/v2/update_ticket']);
    expect(api.sent.at(-1)?.body).toEqual({ ticket: { ticket_id: a, notes: 'Despensa de la semana' } });
    expect((await listOutbox(db))[0]).toMatchObject({ ticketId: b, attempts: 5 });
    // A ticket whose create was tried without an answer (it may be on the server): reconnecting resets its
    // wait, not its tries, so deleting it still asks the server.
    const c = await createManualTicket(db, expenseForm({ amount: '3' }), CTX);
    const createC = (await listOutbox(db)).find((o) => o.ticketId === c)!;
    await db.outbox.update(createC.seq!, { attempts: 3, nextAttemptAt: T0 + 60_000, lastStatus: null });
    api.on(forTicket(c), 'network');
    const later = T0 + 10 * BACKOFF_BASE_MS;
    await drainOutbox(deps(api.fetch, { now: () => later, trigger: 'reconnected' }));
    // Tried at once (its wait started over) and failed again: the first wait, the fourth try.
    expect((await listOutbox(db)).find((o) => o.ticketId === c)).toMatchObject({
      attempts: 4, backoffAttempts: 1, nextAttemptAt: later + backoffMs(1, () => 0.5),
    });
    // The 503 one was not tried: its wait is the server's.
    expect(api.sent.filter(forTicket(b))).toHaveLength(0);
    await deleteTickets(db, [c]);
    expect((await listOutbox(db)).map((o) => o.kind)).toContain('ticket.delete');
  });

  it('back online, a wait the server asked for (Retry-After) is kept; "Sincronizar ahora" sends it anyway', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    api.on(isCreate, json(503, { errors: ['mantenimiento'] }, { 'Retry-After': '120' }));
    expect(await drainOutbox(deps(api.fetch))).toMatchObject({ retried: 1, remaining: 1 });
    expect((await listOutbox(db))[0]!.nextAttemptAt).toBeGreaterThanOrEqual(T0 + 120_000);
    // Reconnecting does not make the server's "come back in two minutes" a network hiccup.
    expect(await drainOutbox(deps(api.fetch, { trigger: 'reconnected' }))).toMatchObject({ sent: 0, remaining: 1 });
    expect(api.sent).toHaveLength(1);
    // The user asking is another matter.
    expect(await drainOutbox(deps(api.fetch, { trigger: 'asked' }))).toMatchObject({ sent: 1, remaining: 0 });
  });

  it('parks a refused operation with the server message; it blocks only its own ticket', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    const b = await createManualTicket(db, expenseForm({ amount: '3' }), CTX);
    await setTicketNote(db, a, 'nota');
    const api = scriptedFetch();
    api.on((s) => isCreate(s) && forTicket(a)(s), json(422, { errors: ['El RFC no pertenece a tu cuenta.'] }));
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 1, parked: 1, remaining: 2 });
    const [parked, waiting] = await listOutbox(db);
    expect(parked).toMatchObject({ status: 'failed', lastError: 'El RFC no pertenece a tu cuenta.', lastStatus: 422, ticketId: a });
    expect(waiting).toMatchObject({ status: 'pending', ticketId: a, attempts: 0 });
    expect((await db.tickets.get(b))?.syncState).toBe('synced');
    // Parked stays parked: later drains do not resend it nor its followers.
    await drainOutbox(deps(api.fetch, { now: () => T0 + 3_600_000 }));
    expect(api.sent).toHaveLength(2);
  });

  it('a 404 on an update or image of a ticket deleted meanwhile is parked with the ticket message', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    await db.outbox.clear();
    await setTicketCategory(db, a, 3, CATEGORIES);
    await attachTicketImage(db, a, { bytes: png(), type: 'image/png', name: 'x.png', size: png().byteLength });
    const api = scriptedFetch();
    api.on(() => true, json(404, { errors: ['otro texto'] }), false);
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ parked: 1, sent: 0 });
    expect((await listOutbox(db))[0]).toMatchObject({ status: 'failed', lastError: MSG.ticketNotFound, lastStatus: 404 });
    // Discard the update: the image goes next and is parked the same way, never a loop.
    const { discardOp } = await import('../../src/offline/outbox-control');
    await discardOp(db, (await listOutbox(db))[0]!.opId);
    const r2 = await drainOutbox(deps(api.fetch));
    expect(r2).toMatchObject({ parked: 1 });
    expect((await listOutbox(db))[0]).toMatchObject({ kind: 'ticket.attach_image', lastError: MSG.ticketNotFound });
    expect(api.sent).toHaveLength(2);
  });

  it('a 409 "still processing" from the idempotency layer retries instead of parking', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const api = scriptedFetch();
    api.on(isCreate, json(409, { errors: [MSG.idempotencyInFlight] }));
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ retried: 1, parked: 0 });
    expect((await listOutbox(db))[0]).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('pauses on 401 keeping everything, reports it, and resumes after sign-in', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    await createManualTicket(db, expenseForm({ amount: '4' }), CTX);
    const api = scriptedFetch();
    api.on(() => true, json(401, { errors: [MSG.unauthorized] }));
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ paused: true, sent: 0, remaining: 2 });
    expect(api.sent).toHaveLength(1);
    expect((await listOutbox(db)).map((o) => [o.status, o.attempts])).toEqual([['pending', 0], ['pending', 0]]);
    const signedOut = await drainOutbox(deps(api.fetch, { getToken: () => null }));
    expect(signedOut).toMatchObject({ paused: true, remaining: 2 });
    expect(api.sent).toHaveLength(1);
    const resumed = await drainOutbox(deps(api.fetch, { getToken: async () => 'tok-2' }));
    expect(resumed).toMatchObject({ sent: 2, paused: false, remaining: 0 });
    expect(api.sent.at(-1)!.headers.get('x-access-token')).toBe('tok-2');
  });

  it('clears the pending flag only after the last operation of the ticket and applies the server copy', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    await setTicketNote(db, a, 'nota');
    const api = scriptedFetch();
    api.on(isUpdate, json(503, {}));
    await drainOutbox(deps(api.fetch));
    expect(await db.tickets.get(a)).toMatchObject({ syncState: 'pending', pendingOps: 1 });
    api.on(isUpdate, () => json(200, { response: apiTicket({ ticket_id: a, note: 'nota', ticket_number: 'M-77' }) }));
    await drainOutbox(deps(api.fetch, { now: () => T0 + 3_600_000 }));
    expect(await db.tickets.get(a)).toMatchObject({ syncState: 'synced', pendingOps: 0, ticket_number: 'M-77', month: '2026-11' });
  });

  it('an inflight operation whose lease expired is taken again; a live lease is left alone', async () => {
    db = freshDb();
    await createManualTicket(db, expenseForm(), CTX);
    const [op] = await listOutbox(db);
    await db.outbox.update(op!.seq!, { status: 'inflight', leaseUntil: T0 + LEASE_MS });
    const api = scriptedFetch();
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 0, remaining: 1, nextAttemptAt: T0 + LEASE_MS });
    expect(api.sent).toHaveLength(0);
    const r2 = await drainOutbox(deps(api.fetch, { now: () => T0 + LEASE_MS + 1 }));
    expect(r2).toMatchObject({ sent: 1, remaining: 0 });
  });

  it('a request that never answers fails at its deadline and frees the queue; the lease outlasts the deadline', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX, { bytes: png(3), type: 'image/png', name: 'recibo.png' });
    const leases: number[] = [];
    const hang = async (req: Request): Promise<Response> => {
      const [op] = await listOutbox(db);
      leases.push(op!.leaseUntil - T0);
      if (req.url.includes('attach_image')) return new Promise<Response>(() => undefined); // never answers
      return scriptedFetch().fetch(req);
    };
    // The deadline grows with the body: 40 ms plus 1 ms per byte here, so the image's is the longer one.
    const deadline = (bytes: number) => 40 + bytes;
    const r = await drainOutbox(deps(hang, { deadline }));
    expect(r).toMatchObject({ sent: 1, retried: 1, offline: true, remaining: 1 });
    expect(leases).toEqual([LEASE_MS, LEASE_MS]); // both deadlines are shorter than the minimum lease
    const [left] = await listOutbox(db);
    expect(left).toMatchObject({ kind: 'ticket.attach_image', status: 'pending', attempts: 1, leaseUntil: 0 });
    // A slow upload keeps its lease past its deadline.
    const slow = (bytes: number) => LEASE_MS + bytes;
    const api = scriptedFetch();
    const seen: number[] = [];
    const watch = async (req: Request) => {
      seen.push((await listOutbox(db))[0]!.leaseUntil - T0);
      return api.fetch(req);
    };
    expect(await drainOutbox(deps(watch, { deadline: slow, trigger: 'asked' }))).toMatchObject({ sent: 1, remaining: 0 });
    expect(seen).toEqual([slow(png(3).byteLength) + 10_000]);
    expect((await db.tickets.get(a))?.syncState).toBe('synced');
  });

  it('uploads images as multipart images[0] from the stored bytes, then drops the bytes', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX, { bytes: png(9), type: 'image/png', name: 'recibo.png' });
    const api = scriptedFetch();
    await drainOutbox(deps(api.fetch));
    const upload = api.sent[1]!;
    expect(upload.method).toBe('POST');
    expect(upload.path).toBe(`/tickets/${a}/attach_image`);
    expect(upload.file?.name).toBe('recibo.png');
    expect(upload.file?.type).toBe('image/png');
    expect(new Uint8Array(await upload.file!.arrayBuffer())).toEqual(new Uint8Array(png(9)));
    expect(await db.blobs.count()).toBe(0);
  });

  it('sends one delete for several tickets after their earlier operations', async () => {
    db = freshDb();
    const a = await createManualTicket(db, expenseForm(), CTX);
    const b = await createManualTicket(db, expenseForm({ amount: '8' }), CTX);
    await db.outbox.where('ticketId').anyOf([a, b]).modify({ attempts: 1 }); // as if sent once (lost answer)
    await deleteTickets(db, [a, b]);
    const api = scriptedFetch();
    const r = await drainOutbox(deps(api.fetch));
    expect(r).toMatchObject({ sent: 3, remaining: 0 });
    expect(api.sent.map((s) => s.method)).toEqual(['POST', 'POST', 'DELETE']);
    expect(api.sent[2]!.body).toEqual({ tickets: [a, b] });
  });

  it('signed out with an empty outbox is not a pause', async () => {
    db = freshDb();
    const r = await drainOutbox(deps(scriptedFetch().fetch, { getToken: () => null }));
    expect(r).toMatchObject({ paused: false, remaining: 0, sent: 0 });
  });

  it('two drains at once in one process: the second reports busy and sends nothing twice', async () => {
    db = freshDb();
    for (let i = 0; i < 3; i++) await createManualTicket(db, expenseForm({ amount: String(i + 1) }), CTX);
    const api = scriptedFetch();
    const [r1, r2] = await Promise.all([drainOutbox(deps(api.fetch)), drainOutbox(deps(api.fetch))]);
    expect(r1.busy).toBe(false);
    expect(r2.busy).toBe(true);
    expect(api.sent).toHaveLength(3);
    expect(await db.outbox.count()).toBe(0);
  });
});
