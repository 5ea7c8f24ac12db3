import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MSG } from '../../../src/domain/messages';
import { manualTicketPayload } from '../../../src/domain/spending-form';
import { tickets } from '../../../src/server/db/schema';
import { DRIVERS, type Harness } from '../helpers/harness';
import { harnessWithOwner } from './owner-setup';
import { createEntry, spending, type Owner } from './ticket-fixtures';

describe.each(DRIVERS)('ticket creation is idempotent on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  harnessWithOwner(driver, (setup) => ({ h, a } = setup));

  const rows = async (id: string) => (await h.database.db.select().from(tickets).where(eq(tickets.id, id))).length;

  it('answers a sequential repeat with the same key with the stored response, one row', async () => {
    const id = newId();
    const key = crypto.randomUUID();
    const first = await createEntry(h, a, spending(), { id, key });
    const second = await createEntry(h, a, spending(), { id, key });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.json).toEqual(first.json);
    expect(await rows(id)).toBe(1);
  });

  it('answers a repeat of the same ticket_id without a key (or with a new key) the same, one row', async () => {
    const id = newId();
    const first = await createEntry(h, a, spending({ note: 'una vez' }), { id });
    const second = await createEntry(h, a, spending({ note: 'una vez' }), { id });
    const third = await createEntry(h, a, spending({ note: 'una vez' }), { id, key: crypto.randomUUID() });
    for (const r of [first, second, third]) expect(r.json).toEqual({ response: { ticket: { ticket_id: id } } });
    expect(await rows(id)).toBe(1);
  });

  it('makes one row of 10 concurrent identical creates with the same key', async () => {
    const id = newId();
    const key = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => createEntry(h, a, spending(), { id, key })));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const r of results.filter((x) => x.status === 409)) expect(r.json).toEqual({ errors: [MSG.idempotencyInFlight] });
    for (const r of results.filter((x) => x.status === 200)) expect(r.json).toEqual({ response: { ticket: { ticket_id: id } } });
    expect(await rows(id)).toBe(1);
  });

  it('makes one row of 10 concurrent identical creates without a key, all answered 200', async () => {
    const id = newId();
    const results = await Promise.all(Array.from({ length: 10 }, () => createEntry(h, a, spending(), { id })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    for (const r of results) expect(r.json).toEqual({ response: { ticket: { ticket_id: id } } });
    expect(await rows(id)).toBe(1);
  });

  it('answers the same key with another body with 422 and stores nothing new', async () => {
    const key = crypto.randomUUID();
    const first = await createEntry(h, a, spending(), { key });
    expect(first.status).toBe(200);
    const other = await createEntry(h, a, spending({ amount: '999' }), { key });
    expect(other.status).toBe(422);
    expect(other.json).toEqual({ errors: [MSG.idempotencyMismatch] });
    expect(await rows(other.id)).toBe(0);
  });

  it('keeps the first version when the same ticket_id comes back with other data', async () => {
    const id = newId();
    await createEntry(h, a, spending({ amount: '10' }), { id });
    const again = await createEntry(h, a, spending({ amount: '20' }), { id });
    expect(again.status).toBe(200);
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id));
    expect(row?.amount).toBe('10.00');
  });

  it('accepts the token in usuario.token as the spec sends it', async () => {
    const id = newId();
    const body = manualTicketPayload(spending(), a.rfc, id);
    body.usuario.token = a.token;
    const r = await h.call('POST', '/form/ticket_create?format=json', { body });
    expect(r.status).toBe(200);
    expect(await rows(id)).toBe(1);
  });
});
