// The merchant routes: a merchant's form (spec §7 'Form fields'), the field types, ticket
// verification (typed values or a scanned QR), the point-of-sale API, the RFC check and, in
// development, a page listing the demo tickets.
import { Hono, type Context } from 'hono';
import { MERCHANT_API_MSG, MerchantTicketBody } from '../../domain/merchant-api';
import { FIELD_TYPE } from '../../domain/merchant-fields';
import { MSG } from '../../domain/messages';
import type { AppDeps, AppEnv, Services } from '../context';
import { companies } from '../db/schema';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { parseBracketedQuery, type QueryValue } from '../http/bracketed-query';
import { and, eq } from 'drizzle-orm';
import { merchantById, merchantByShort } from './csd';
import { devMerchantTicketsRoutes } from './dev-page';
import { merchantFields, publicField } from './fields';
import { merchantKeyMatches } from './merchant-key';
import { merchantTicketQr, registerMerchantTicket } from './merchant-tickets';
import { findMerchantTicket, verifiedTicketJson, type VerifyFlow } from './verify';
import * as v from 'valibot';
import { adoptRoutes, defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const FieldDefinition = v.object({
  form_configuration_id: v.pipe(v.number(), v.description('Se envía de vuelta con cada valor')),
  field_name: v.string(),
  form_field_type_id: v.pipe(v.number(), v.description('1 entero ≥ 1, 2 y 6 texto, 4 fecha aaaa/mm/dd, 7 seis bloques de cuatro dígitos, 8 lista, 9 decimal, 11 solo texto')),
  min_length: v.nullable(v.number()),
  helper_image: v.pipe(v.nullable(v.string()), v.description('Ruta de la imagen de ayuda')),
  options: v.array(v.object({ option_id: v.number(), option_title: v.string() })),
});

const VerifiedTicket = v.object({
  ref: v.pipe(v.string(), v.description('Referencia pública del ticket (la del QR)')),
  ticket_number: v.string(),
  venue: v.string(),
  issued_at: v.pipe(v.string(), v.description('ISO 8601')),
  subtotal: v.string(),
  tax: v.string(),
  total: v.string(),
  forma_pago: v.pipe(v.string(), v.description('c_FormaPago')),
  invoiced: v.pipe(v.boolean(), v.description('Ya tiene una factura timbrada')),
  invoice: v.nullable(
    v.object({
      request_id: v.string(),
      status: v.picklist(['solicitada', 'timbrada', 'enviada', 'error', 'sustituida']),
      email_masked: v.string(),
      uuid: v.nullable(v.string()),
    }),
  ),
});

const RegisteredTicket = v.object({
  ref: v.pipe(v.string(), v.description('16 caracteres [A-Z0-9]')),
  check_code: v.pipe(v.string(), v.description('Código impreso en el ticket (el enviado o uno generado)')),
  subtotal: v.string(),
  tax: v.pipe(v.string(), v.description('IVA trasladado, exacto como lo dirá el CFDI')),
  total: v.string(),
  qr: v.pipe(v.string(), v.description('El enlace que se imprime como QR')),
});

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
  const verifyLimiter = s.limits('merchant-verify', VERIFIES_PER_MINUTE, 60_000);

  /** The merchant of the path whose X-Merchant-Key matches; 401 otherwise, whatever the body. */
  const merchantByKey = async (c: Context<AppEnv>) => {
    const [row] = await s.db
      .select({ hash: companies.apiKeyHash })
      .from(companies)
      .where(and(eq(companies.shortName, pathParam(c, 'short')), eq(companies.kind, 'merchant')));
    // The same answer for an unknown merchant and a wrong key: the API does not confirm which merchants exist.
    if (!row || !merchantKeyMatches(c.req.header('x-merchant-key'), row.hash)) throw fail(401, MSG.merchantKeyInvalid);
    const merchant = await merchantByShort(s.db, pathParam(c, 'short'));
    if (!merchant) throw fail(401, MSG.merchantKeyInvalid);
    return merchant;
  };

  defineRoute(app, {
    method: 'get', path: '/form/fields.json', summary: 'Campos del formulario de un comercio, en orden', tag: 'Comercios', auth: false,
    response: v.array(FieldDefinition), errors: [404], params: { 'company[id]': '*diverza_client_id del comercio' },
  }, async (c) => {
    const id = companyIdOf(parseBracketedQuery(new URL(c.req.url).searchParams));
    const merchant = id === null ? null : await merchantById(s.db, id);
    if (!merchant) throw fail(404, MSG.notFound);
    return ok(c, (await merchantFields(s.db, merchant.id)).map(publicField));
  });

  defineRoute(app, { method: 'get', path: '/form/data_types.json', summary: 'Tipos de campo de los formularios de comercio', tag: 'Comercios', auth: false, response: v.array(v.object({ id: v.number(), name: v.string() })) }, (c) => ok(c, FIELD_TYPE_NAMES));

  defineRoute(app, {
    method: 'get', path: '/api/v33/tickets/verify',
    summary: 'Buscar un ticket de un comercio por los valores de su formulario o por los datos de su QR (ref, check, total). Límite: 60 consultas por minuto por dirección',
    tag: 'Comercios', auth: false, response: VerifiedTicket, errors: [404, 422, 429],
    params: {
      'company[id]': '*diverza_client_id del comercio',
      'values[<form_configuration_id>]': 'El valor de cada campo (uno por parámetro)',
      flow: '`form` (predeterminado), `merchant`, `anonymous` o `multi`: decide qué campos se piden y el mensaje si no existe',
      ref: 'Referencia del QR (en lugar de values)',
      check: 'Código de verificación del QR',
      total: 'Total del QR, 2 decimales',
    },
  }, async (c) => {
    const now = s.clock();
    const ip = c.get('ip');
    if (!(await verifyLimiter.take(ip, now.getTime()))) {
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

  defineRoute(app, {
    method: 'post', path: '/api/v3/merchants/{short_name}/tickets', names: { short_name: 'short' },
    summary: 'Punto de venta: registrar un ticket (precios con IVA incluido; el servidor calcula subtotal, IVA y total). Requiere el encabezado X-Merchant-Key con la llave del comercio',
    tag: 'Comercios', auth: false, body: MerchantTicketBody, response: RegisteredTicket, status: 201, errors: [401, 409, 422],
    params: { short_name: '*short_name del comercio' },
    guard: merchantByKey,
  }, async (c, { body: input, guard: merchant }) => {
    const ticket = await registerMerchantTicket(s.db, merchant, input, s.clock());
    return ok(c, { ref: ticket.ref, check_code: ticket.checkCode, subtotal: ticket.subtotal, tax: ticket.tax, total: ticket.total, qr: merchantTicketQr(s.config.publicUrl, merchant.shortName, ticket) }, 201);
  });

  if (s.config.devTools) {
    const dev = devMerchantTicketsRoutes(s);
    app.route('/', dev);
    adoptRoutes(app, dev);
  }
  return app;
}
