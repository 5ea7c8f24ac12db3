// GET /api/v3/rfc/{rfc} (spec §7 'Validate RFC'): 200 when the RFC may receive a CFDI; 422 with the
// spec's message when its shape or check digit is wrong, or SAT lists it as not active.
import { Hono } from 'hono';
import { MERCHANT_API_MSG } from '../../domain/merchant-api';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import type { AppEnv, Services } from '../context';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { checkRfcActive } from './rfc-check';
import { defineRoute, pathParam } from '../http/route';
import * as v from 'valibot';

export const RFC_CHECKS_PER_MINUTE = 60;

export function rfcRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const limiter = s.limits('rfc-check', RFC_CHECKS_PER_MINUTE, 60_000);
  defineRoute(app, {
    method: 'get', path: '/api/v3/rfc/{rfc}', summary: 'Validar un RFC: forma, dígito verificador y lista local de RFC no activos del SAT. Límite: 60 por minuto por dirección',
    tag: 'Comercios', auth: false, response: v.object({ rfc: v.string(), active: v.literal(true) }), errors: [422, 429], params: { rfc: '*RFC' },
  }, async (c) => {
    const now = s.clock().getTime();
    if (!(await limiter.take(c.get('ip'), now))) throw fail(429, MERCHANT_API_MSG.rateLimited, { 'Retry-After': String(limiter.retryAfter(c.get('ip'), now)) });
    const rfc = normalizeRfc(pathParam(c, 'rfc'));
    const result = await checkRfcActive(s.db, rfc);
    if (result === 'invalid') throw fail(422, MSG.rfcPatternInvalid);
    if (result === 'inactive') throw fail(422, MSG.rfcInactive);
    return ok(c, { rfc, active: true });
  });
  return app;
}
