// GET /api/v3/exchange_rates (the panel's "Currency rate" call, spec §7/§9) and PUT for staff's manual entry.
import { eq } from 'drizzle-orm';
import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { CURRENCIES, NATIONAL_CURRENCY } from '../../domain/currency';
import { MSG } from '../../domain/messages';
import { isDate, isFutureDate, todayInput } from '../../domain/spending-form';
import type { AppEnv, Services } from '../context';
import { users } from '../db/schema';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import type { ForeignCurrency } from './rates';
import { setManualRate } from './rates';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';

const FOREIGN = CURRENCIES.filter((c) => c !== NATIONAL_CURRENCY) as ForeignCurrency[];

/** yyyy-mm-dd (yyyy/mm/dd accepted too), a real date. */
const DateParam = v.pipe(
  v.string(MSG.dateInvalid),
  v.transform((s) => s.trim().replace(/\//g, '-')),
  v.check((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && isDate(s.replace(/-/g, '/')), MSG.dateInvalid),
);
const BaseParam = v.pipe(v.string(MSG.currencyInvalid), v.transform((s) => s.trim().toUpperCase()), v.picklist(CURRENCIES, MSG.currencyInvalid));

/** GET's answer: the rate, or `rate: null` and `source: null` when none is known (an ordinary answer, not an error). */
export const RateLookup = v.object({
  base: v.string(),
  date: v.pipe(v.string(), v.description('Fecha de publicación usada (aaaa-mm-dd), la última dentro de 7 días; sin tipo de cambio, la fecha pedida')),
  rate: v.pipe(v.nullable(v.number()), v.description('MXN por 1 unidad de base; null si no se conoce para esa fecha (ni para los 7 días anteriores)')),
  source: v.pipe(v.nullable(v.picklist(['banxico', 'manual'])), v.description('null si no se conoce el tipo de cambio')),
});

/** `date=` (empty) means today, like no date at all. */
export const RateQuery = v.object({ base: BaseParam, date: v.optional(v.union([v.literal(''), DateParam], MSG.dateInvalid)) });

export const ManualRateBody = v.object({
  base: v.pipe(BaseParam, v.picklist(FOREIGN, MSG.currencyInvalid)),
  date: DateParam,
  rate: v.pipe(
    v.union([v.number(), v.string()], MSG.rateInvalid),
    v.transform(Number),
    v.check((n) => Number.isFinite(n) && n > 0 && n < 100_000, MSG.rateInvalid),
  ),
});

export function rateRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  defineRoute(app, {
    method: 'get', path: '/api/v3/exchange_rates',
    summary: 'Tipo de cambio FIX (MXN por unidad) de una fecha; sin publicación ese día, la última dentro de 7 días; si no se conoce (o la fecha es futura), 200 con rate: null',
    tag: 'Tipo de cambio', auth: true, response: RateLookup,
    params: { base: '*USD, EUR, GBP, JPY o CAD', date: 'aaaa-mm-dd (hoy si falta)' }, query: RateQuery,
  }, auth, async (c, { query: q }) => {
    const date = q.date || todayInput(s.clock()).replace(/\//g, '-');
    if (q.base === 'MXN') return ok(c, { base: q.base, date, rate: 1, source: s.rates.kind });
    // Nothing is published for a future date; either way the panel asks the user for the rate or the pesos.
    const rate = isFutureDate(date.replace(/-/g, '/'), s.clock()) ? null : await s.rates.rateFor(q.base, date);
    return ok(c, rate ?? { base: q.base, date, rate: null, source: null });
  });

  // Support staff only, refused before the body is read.
  const staffOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
    const [user] = await s.db.select({ isStaff: users.isStaff }).from(users).where(eq(users.id, caller(c).userId));
    if (!user?.isStaff) throw fail(403, MSG.forbidden);
    return next();
  };

  defineRoute(app, { method: 'put', path: '/api/v3/exchange_rates', summary: 'Registrar un tipo de cambio a mano (solo personal de soporte)', tag: 'Tipo de cambio', auth: true, body: ManualRateBody, response: R.ExchangeRate, errors: [403] }, auth, staffOnly, async (c, { body }) => {
    return ok(c, await setManualRate(s.db, body.base, body.date, body.rate, s.clock()));
  });

  return app;
}
