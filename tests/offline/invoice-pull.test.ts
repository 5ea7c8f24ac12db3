// The ticket JSON's `invoice` is kept on the device as pulled, and replaced by the next pull.
import { afterEach, describe, expect, it } from 'vitest';
import type { TicketInvoice } from '../../src/domain/invoicing';
import type { AppDb } from '../../src/offline/db';
import { applyPull } from '../../src/offline/pull';
import { RFC, apiTicket, freshDb } from './outbox-fixtures';

let db: AppDb | undefined;
afterEach(async () => {
  await db?.delete();
  db = undefined;
});

describe('invoice on the stored ticket', () => {
  it('stores the pulled invoice request and follows its status', async () => {
    db = freshDb();
    const invoice: TicketInvoice = { request_id: 'r1', status: 'solicitada', email: 'ana@example.mx', error: null, updated_at: '2026-11-20T20:00:00Z' };
    const t = { ...apiTicket(), invoice };
    await applyPull(db, RFC, ['2026-11'], [t], Date.now());
    expect((await db.tickets.get(t.ticket_id))?.invoice).toEqual(invoice);
    const sent = { ...invoice, status: 'enviada' as const, updated_at: '2026-11-20T20:01:00Z' };
    const next = { ...t, invoice: sent };
    await applyPull(db, RFC, ['2026-11'], [next], Date.now());
    expect((await db.tickets.get(t.ticket_id))?.invoice).toEqual(sent);
  });
});
