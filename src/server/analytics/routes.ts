// Spending analytics (DESIGN §3, spec §7): the caller's own RFC only; another user's RFC is a plain 404.
import { Hono } from 'hono';
import { FIRST_YEAR } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { ownClientId } from '../http/own-account';
import { spendingAnalytics } from './queries';
import { defineRoute, pathParam } from '../http/route';
import * as R from '../openapi/responses';

const LAST_YEAR = 9999;

function yearParam(raw: string): number {
  const year = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(year >= FIRST_YEAR && year <= LAST_YEAR)) throw fail(400, MSG.analyticsYear);
  return year;
}

function monthParam(raw: string): number {
  const month = /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
  if (!(month >= 1 && month <= 12)) throw fail(400, MSG.analyticsMonth);
  return month;
}

export function analyticsRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  defineRoute(app, {
    method: 'get', path: '/api/v3/analytics/spending/{rfc}/{year}/{month}', summary: 'Gasto (tipo 2) de un mes de un RFC propio por establecimiento y por categoría, y el del mes anterior', tag: 'Análisis', auth: true, response: R.SpendingAnalytics, errors: [400, 404],
    params: { rfc: '*RFC de una cuenta fiscal propia', year: '*Año, 2013 o posterior', month: '*Mes 1-12' },
  }, auth, async (c) => {
    const year = yearParam(pathParam(c, 'year'));
    const month = monthParam(pathParam(c, 'month'));
    const clientId = await ownClientId(s.db, caller(c).userId, pathParam(c, 'rfc'));
    return ok(c, await spendingAnalytics(s.db, clientId, year, month));
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/analytics/spending/{rfc}/{year}', summary: 'Gasto (tipo 2) de un año de un RFC propio por establecimiento y por categoría, y el del año anterior', tag: 'Análisis', auth: true, response: R.SpendingAnalytics, errors: [400, 404],
    params: { rfc: '*RFC de una cuenta fiscal propia', year: '*Año, 2013 o posterior' },
  }, auth, async (c) => {
    const year = yearParam(pathParam(c, 'year'));
    const clientId = await ownClientId(s.db, caller(c).userId, pathParam(c, 'rfc'));
    return ok(c, await spendingAnalytics(s.db, clientId, year));
  });

  return app;
}
