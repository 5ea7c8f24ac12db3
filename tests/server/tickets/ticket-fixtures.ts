// Shared by the ticket API tests: a signed-in user with one tax account, manual entries built with the
// client's own payload builder, and multipart image uploads.
import { newId } from '../../../src/domain/ids';
import { manualTicketPayload, todayInput, type SpendingForm } from '../../../src/domain/spending-form';
import type { Harness } from '../helpers/harness';

export interface Owner {
  token: string;
  userId: number;
  rfc: string;
}

/** Signs a user up and gives them a persona account with that RFC (two users may share an RFC). */
export async function ownerWithRfc(h: Harness, rfc = 'GODE561231GR8'): Promise<Owner> {
  const u = await h.signUp('tk');
  const r = await h.call('POST', '/new_client', {
    token: u.token,
    body: { client: { rfc, first_name: 'Emma', last_name: 'Gómez Díaz' } },
  });
  if (r.status !== 200) throw new Error(`new_client: ${r.text}`);
  return { token: u.token, userId: u.userId, rfc };
}

export function spending(over: Partial<SpendingForm> = {}): SpendingForm {
  return { kind: 'expense', amount: '120.50', date: '2026/01/15', category: '1', currency: 'MXN', nationalAmount: '', note: '', ...over };
}

export function income(over: Partial<SpendingForm> = {}): SpendingForm {
  return { kind: 'income', amount: '15000', date: '2026/01/20', category: '2', currency: 'MXN', nationalAmount: '', note: '', ...over };
}

export const tomorrow = () => todayInput(new Date(Date.now() + 2 * 86_400_000));

/** POST /form/ticket_create with the panel's payload; answers the API result and the id used. */
export async function createEntry(h: Harness, o: Owner, form: SpendingForm, opts: { id?: string; key?: string; rfc?: string } = {}) {
  const id = opts.id ?? newId();
  const body = manualTicketPayload(form, opts.rfc ?? o.rfc, id);
  const r = await h.call('POST', '/form/ticket_create?format=json', {
    token: o.token,
    body,
    headers: opts.key ? { 'Idempotency-Key': opts.key } : {},
  });
  return { ...r, id };
}

export async function listMonth(h: Harness, o: Owner, year: number, month: number, rfc = o.rfc) {
  return h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${rfc}&date[year]=${year}&date[month]=${month}`, { token: o.token });
}

export async function uploadImage(
  h: Harness,
  token: string,
  ticketId: string,
  bytes: Uint8Array,
  opts: { name?: string; type?: string; field?: string; headers?: Record<string, string> } = {},
) {
  const form = new FormData();
  form.append(opts.field ?? 'images[0]', new Blob([new Uint8Array(bytes)], { type: opts.type ?? 'image/png' }), opts.name ?? 'recibo.png');
  const res = await h.app.request(`/tickets/${ticketId}/attach_image`, {
    method: 'POST',
    headers: { 'x-access-token': token, ...opts.headers },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

/** A PNG as far as magic bytes go, padded to `size` bytes. */
export function pngOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return bytes;
}
