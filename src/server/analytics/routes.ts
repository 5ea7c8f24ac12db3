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

  app.get('/api/v3/analytics/spending/:rfc/:year/:month', auth, async (c) => {
    const year = yearParam(c.req.param('year'));
    const month = monthParam(c.req.param('month'));
    const clientId = await ownClientId(s.db, caller(c).userId, c.req.param('rfc'));
    return ok(c, await spendingAnalytics(s.db, clientId, year, month));
  });

  app.get('/api/v3/analytics/spending/:rfc/:year', auth, async (c) => {
    const year = yearParam(c.req.param('year'));
    const clientId = await ownClientId(s.db, caller(c).userId, c.req.param('rfc'));
    return ok(c, await spendingAnalytics(s.db, clientId, year));
  });

  return app;
}
