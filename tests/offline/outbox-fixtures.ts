// Shared pieces of the outbox tests: a fresh database per test, panel forms, tickets as the API
// sends them, tiny images, and a scripted fetch that records what the engine sent.
import { createDb, type AppDb } from '../../src/offline/db';
import type { SpendingForm } from '../../src/domain/spending-form';
import type { Ticket } from '../../src/domain/ticket';
import { EXPENSE_CATEGORIES } from '../../src/domain/categories';

let n = 0;
export function freshDb(): AppDb {
  return createDb(`outbox-test-${process.pid}-${++n}`);
}

export const CATEGORIES = EXPENSE_CATEGORIES.map((c) => ({ ...c }));
export const RFC = 'ABC010101AB1';
export const RFC2 = 'GODE561231GR8';
export const CTX = { rfc: RFC, username: 'ana01', categories: CATEGORIES };

export function expenseForm(over: Partial<SpendingForm> = {}): SpendingForm {
  return { kind: 'expense', amount: '120', date: '2026/11/20', category: '1', currency: 'MXN', nationalAmount: '', note: '', ...over };
}

/** A 1×1 PNG (valid signature) with a 16-bit marker appended, so images differ. */
export function png(marker = 0): ArrayBuffer {
  const bytes = Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82, (marker >> 8) & 255, marker & 255,
  ]);
  return bytes.buffer;
}

export function apiTicket(over: Partial<Ticket> = {}): Ticket {
  return {
    ticket_id: '01900000-0000-7000-8000-000000000001',
    ticket_type_id: 2,
    ticket_status_name: 'no facturable',
    received_at: '2026-11-20T12:00:00-06:00',
    company_short_name: 'manual',
    ticket_number: 'M-1',
    amount: '120.00',
    tags: [{ tag_id: 1, tag_name: 'Alimentos y bebidas' }],
    income_meta_tag_id: null,
    note: '',
    include_ticket_image: false,
    ticket_image_text: '',
    user_area: '',
    username: 'ana01',
    receipt: null,
    rfc: RFC,
    ...over,
  };
}

export interface Sent {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  /** For multipart: the file of images[0]. */
  file?: File;
}

type Reply = Response | 'network' | ((req: Sent) => Response | 'network' | Promise<Response | 'network'>);

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/**
 * A fetch that records requests and answers by rule: `rules` are tried in order (first whose
 * predicate matches, consumed if `once`), else `fallback` (200 with a plausible body).
 */
export function scriptedFetch() {
  const sent: Sent[] = [];
  const rules: { match: (s: Sent) => boolean; reply: Reply; once: boolean }[] = [];
  const fetch = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const s: Sent = { method: req.method, path: url.pathname + url.search, headers: req.headers, body: null };
    const type = req.headers.get('content-type') ?? '';
    if (type.startsWith('multipart/')) {
      const form = await req.formData();
      s.file = form.get('images[0]') as File;
    } else if (req.method !== 'GET') {
      const text = await req.text();
      s.body = text ? JSON.parse(text) : null;
    }
    sent.push(s);
    const i = rules.findIndex((r) => r.match(s));
    let reply: Reply = defaultReply;
    if (i >= 0) {
      reply = rules[i]!.reply;
      if (rules[i]!.once) rules.splice(i, 1);
    }
    const out = typeof reply === 'function' ? await reply(s) : reply;
    if (out === 'network') throw new TypeError('Failed to fetch');
    return out;
  };
  return {
    fetch,
    sent,
    on(match: (s: Sent) => boolean, reply: Reply, once = true) {
      rules.push({ match, reply, once });
    },
  };
}

function defaultReply(s: Sent): Response {
  if (s.path.startsWith('/form/ticket_create')) {
    const id = (s.body as { additional_info: { ticket_id: string } }).additional_info.ticket_id;
    return json(200, { response: { ticket: { ticket_id: id } } });
  }
  if (s.path.startsWith('/api/v2/update_ticket')) {
    const t = (s.body as { ticket: { ticket_id: string; notes?: string } }).ticket;
    return json(200, { response: apiTicket({ ticket_id: t.ticket_id, note: t.notes ?? '' }) });
  }
  if (s.path.includes('/attach_image')) return new Response(null, { status: 204 });
  if (s.path.startsWith('/api/v2/tickets') && s.method === 'DELETE') {
    return json(200, { response: { deleted: (s.body as { tickets: string[] }).tickets.length } });
  }
  return json(404, { errors: ['Este recurso no existe'] });
}

export const isCreate = (s: Sent) => s.path.startsWith('/form/ticket_create');
export const isUpdate = (s: Sent) => s.path.startsWith('/api/v2/update_ticket');
export const forTicket = (id: string) => (s: Sent) =>
  s.path.includes(id) || JSON.stringify(s.body ?? '').includes(id);
