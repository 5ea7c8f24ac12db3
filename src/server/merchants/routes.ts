// The merchant routes: a merchant's form (spec §7 'Form fields'), the field types, ticket
// verification (typed values or a scanned QR), the point-of-sale API, the RFC check and, in
// development, a page listing the demo tickets.
import { Hono } from 'hono';
import { MerchantTicketBody, MERCHANT_API_MSG } from '../../domain/merchant-api';
import { FIELD_TYPE } from '../../domain/merchant-fields';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { companies } from '../db/schema';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { parseBracketedQuery, type QueryValue } from '../http/bracketed-query';
import { and, eq } from 'drizzle-orm';
import { merchantById, merchantByShort } from './csd';
import { devMerchantTicketsRoutes } from './dev-page';
import { merchantFields, publicField } from './fields';
import { IpLimiter } from '../lib/ip-limiter';
import { merchantKeyMatches } from './merchant-key';
import { merchantTicketQr, registerMerchantTicket } from './merchant-tickets';
import { findMerchantTicket, verifiedTicketJson, type VerifyFlow } from './verify';

export const VERIFIES_PER_MINUTE = 60;

/** Spec §3 form field types, as GET /form/data_types.json lists them. */
export const FIELD_TYPE_NAMES: { id: number; name: string }[] = [
  { id: FIELD_TYPE.integer, name: 'Número entero (mínimo 1)' },
  { id: FIELD_TYPE.text, name: 'Texto' },
  { id: FIELD_TYPE.date, name: 'Fecha (aaaa/mm/dd, hoy o antes)' },
  { id: FIELD_TYPE.text6, name: 'Texto' },
  { id: FIELD_TYPE.cardBlocks, name: 'Numérico en seis bloques de cuatro dígitos' },
  { id: FIELD_TYPE.select, name: 'Lista de opciones' },
  { id: FIELD_TYPE.decimal, name: 'Número con hasta 2 decimales' },
  { id: FIELD_TYPE.label, name: 'Solo texto (sin captura)' },
];

const FLOWS: readonly VerifyFlow[] = ['form', 'merchant', 'anonymous', 'multi'];
const NOT_FOUND_MESSAGE: Record<VerifyFlow, string> = {
  form: MSG.ticketNotFound33,
  anonymous: MSG.ticketNotFound33,
  multi: MSG.multiTicketNotFound,
  merchant: MSG.merchantTicketNotFound,
};

const str = (v: QueryValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** company[id] (or company_id) of a bracketed query, when it is a whole number. */
function companyIdOf(q: Record<string, QueryValue>): number | null {
  const company = q.company;
  const raw = typeof company === 'object' && !Array.isArray(company) ? str(company.id) : str(q.company_id);
  return raw && /^[0-9]{1,9}$/.test(raw) ? Number(raw) : null;
}

export function merchantRoutes(s: Services, _deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const verifyLimiter = new IpLimiter(VERIFIES_PER_MINUTE, 60_000);

  app.get('/form/fields.json', async (c) => {
    const id = companyIdOf(parseBracketedQuery(new URL(c.req.url).searchParams));
    const merchant = id === null ? null : await merchantById(s.db, id);
    if (!merchant) throw fail(404, MSG.notFound);
    return ok(c, (await merchantFields(s.db, merchant.id)).map(publicField));
  });

  app.get('/form/data_types.json', (c) => ok(c, FIELD_TYPE_NAMES));

  app.get('/api/v33/tickets/verify', async (c) => {
    const now = s.clock();
    const ip = c.get('ip');
    if (!verifyLimiter.take(ip, now.getTime())) {
      throw fail(429, MERCHANT_API_MSG.rateLimited, { 'Retry-After': String(verifyLimiter.retryAfter(ip, now.getTime())) });
    }
    const q = parseBracketedQuery(new URL(c.req.url).searchParams);
    const flowText = str(q.flow) ?? 'form';
    const flow = (FLOWS as readonly string[]).includes(flowText) ? (flowText as VerifyFlow) : 'form';
    const id = companyIdOf(q);
    const merchant = id === null ? null : await merchantById(s.db, id);
    if (!merchant) throw fail(404, MSG.notFound);
    const ref = str(q.ref);
    const values = q.values;
    const lookup = ref !== undefined
      ? { ref, check: str(q.check) ?? '', total: str(q.total) ?? '' }
      : { values: typeof values === 'object' && !Array.isArray(values) ? (Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string')) as Record<string, string>) : {}, flow };
    const found = await findMerchantTicket(s.db, merchant.id, lookup, now);
    if (!found.ok) throw fail(found.status, found.status === 422 ? found.message : NOT_FOUND_MESSAGE[flow]);
    return ok(c, await verifiedTicketJson(s.db, found.ticket));
  });

  app.post('/api/v3/merchants/:short/tickets', async (c) => {
    const [row] = await s.db
      .select({ hash: companies.apiKeyHash })
      .from(companies)
      .where(and(eq(companies.shortName, c.req.param('short')), eq(companies.kind, 'merchant')));
    // The same answer for an unknown merchant and a wrong key: the API does not confirm which merchants exist.
    if (!row || !merchantKeyMatches(c.req.header('x-merchant-key'), row.hash)) throw fail(401, MSG.merchantKeyInvalid);
    const merchant = await merchantByShort(s.db, c.req.param('short'));
    if (!merchant) throw fail(401, MSG.merchantKeyInvalid);
    const input = parseWith(MerchantTicketBody, c.get('body'));
    const ticket = await registerMerchantTicket(s.db, merchant, input, s.clock());
    return ok(c, { ref: ticket.ref, check_code: ticket.checkCode, subtotal: ticket.subtotal, tax: ticket.tax, total: ticket.total, qr: merchantTicketQr(s.config.publicUrl, merchant.shortName, ticket) }, 201);
  });

  if (s.config.devTools) app.route('/', devMerchantTicketsRoutes(s));
  return app;
}
