// The ticket form's request goes through the outbox like a manual ticket (offline first): one
// transaction writes the pending ticket and its ticket.create; the screen then learns the server's answer.
import { afterEach, describe, expect, it } from 'vitest';
import { merchantTicketPayload, requestMerchantTicket, REQUESTED_STATUS, type TicketRequest } from '../../../src/offline/operations/ticket-create';
import { awaitOperation } from '../../../src/offline/outbox-control';
import { merchantByShortName, type MerchantEntry } from '../../../src/domain/merchants';
import { MSG } from '../../../src/domain/messages';
import { createDb, type AppDb } from '../../../src/offline/db';
import { ticket } from '../../app/invoicing/fixtures';

let db: AppDb;
let n = 0;
afterEach(async () => {
  await db.delete();
});

const autozone = merchantByShortName('autozone') as MerchantEntry;
const request = (over: Partial<TicketRequest> = {}): TicketRequest => ({
  merchant: autozone,
  rfc: 'GODE561231GR8',
  username: 'juan',
  values: [{ form_configuration_id: 301, value: '100234' }],
  note: 'Comida con cliente',
  verified: ticket(),
  ...over,
});

describe('queueing the request', () => {
  it('writes the pending ticket of the merchant and its ticket.create with company[id] = merchant', async () => {
    db = createDb(`test-req-${++n}`);
    const { opId, ticketId } = await requestMerchantTicket(db, request(), new Date('2026-11-22T18:00:00Z'));
    const row = await db.tickets.get(ticketId);
    expect(row).toMatchObject({
      company_short_name: 'autozone', ticket_number: '100234', amount: '116.00', ticket_status_name: 'pendiente',
      received_at: '2026-11-20T13:05:00-06:00', month: '2026-11', syncState: 'pending', pendingOps: 1, rfc: 'GODE561231GR8', note: 'Comida con cliente',
    });
    const op = await db.outbox.where('opId').equals(opId).first();
    expect(op?.kind).toBe('ticket.create');
    expect(op?.payload).toEqual(merchantTicketPayload(request(), ticketId));
    const payload = op?.payload as ReturnType<typeof merchantTicketPayload>;
    expect(payload.company.id).toBe(autozone.id);
    expect(payload.additional_info).toMatchObject({ ticket_id: ticketId, ticket_type: 2, ticket_status: REQUESTED_STATUS, uso_cfdi: 'G03' });
  });

  it('offline (nothing verified) it still keeps the request, with what was typed', async () => {
    db = createDb(`test-req-${++n}`);
    const now = new Date('2026-11-22T18:00:00Z');
    const { ticketId } = await requestMerchantTicket(db, request({ verified: null }), now);
    expect(await db.tickets.get(ticketId)).toMatchObject({ ticket_number: '100234', amount: '0.00', received_at: now.toISOString() });
  });
});

describe('waiting for the answer', () => {
  it('sent: the operation left the outbox', async () => {
    db = createDb(`test-req-${++n}`);
    const { opId } = await requestMerchantTicket(db, request());
    await db.outbox.where('opId').equals(opId).delete();
    expect(await awaitOperation(db, opId, { discardRefused: true })).toEqual({ kind: 'sent' });
  });

  it('waits for the change itself: it answers as soon as the drain removes the operation, not on a timer', async () => {
    db = createDb(`test-req-${++n}`);
    const { opId } = await requestMerchantTicket(db, request());
    const started = Date.now();
    const outcome = awaitOperation(db, opId, { timeoutMs: 60_000 });
    setTimeout(() => void db.outbox.where('opId').equals(opId).delete(), 30);
    expect(await outcome).toEqual({ kind: 'sent' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refused: the server message comes back and the dead request is discarded with its ticket', async () => {
    db = createDb(`test-req-${++n}`);
    const { opId, ticketId } = await requestMerchantTicket(db, request());
    await db.outbox.where('opId').equals(opId).modify({ status: 'failed', lastStatus: 409, lastError: MSG.ticketAlreadyInvoiced });
    expect(await awaitOperation(db, opId, { discardRefused: true })).toEqual({ kind: 'refused', message: MSG.ticketAlreadyInvoiced });
    expect(await db.tickets.get(ticketId)).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });

  it('queued: a network failure (or the time-out) leaves it pending for the reconnect', async () => {
    db = createDb(`test-req-${++n}`);
    const { opId } = await requestMerchantTicket(db, request());
    expect(await awaitOperation(db, opId, { timeoutMs: 0 })).toEqual({ kind: 'queued' });
    await db.outbox.where('opId').equals(opId).modify({ attempts: 1, lastStatus: null, nextAttemptAt: Date.now() + 60_000 });
    expect(await awaitOperation(db, opId, { timeoutMs: 10_000 })).toEqual({ kind: 'queued' });
    expect(await db.outbox.count()).toBe(1);
  });
});
