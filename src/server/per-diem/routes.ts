// The per-diem HTTP surface: GET/POST /api/v3/clients/{client_id}/per_diem_events.json,
// GET …/per_diem_events/options.json (departments and collaborators for 'Nuevo evento'), and
// POST …/per_diem_events/{id}/approve.json and …/close.json. Manager only, gated by Viaticos (http/company-access.ts managedCompany). Approving is the manager's too:
// the spec's authorizers are collaborators, and letting them in would open company endpoints to non-owners.
import { Hono, type Context } from 'hono';
import { MSG } from '../../domain/messages';
import { managedCompany, type Company } from '../http/company-access';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { approvePerDiemEvent, closePerDiemEvent, createPerDiemEvent, listPerDiemEvents, perDiemOptions } from './events';
import { PerDiemBody } from './schemas';

const idOf = (raw: string | undefined) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN);

export function perDiemRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const company = (c: Context<AppEnv>): Promise<Company> => managedCompany(s.db, caller(c).userId, idOf(c.req.param('client_id')), 'Viaticos');
  const eventId = (c: Context<AppEnv>) => {
    const id = idOf(c.req.param('id'));
    if (Number.isNaN(id) || id > 2_147_483_647) throw fail(404, MSG.notFound);
    return id;
  };
  const base = '/api/v3/clients/:client_id/per_diem_events';

  app.get(`${base}.json`, auth, async (c) => ok(c, await listPerDiemEvents(s.db, (await company(c)).id)));

  app.get(`${base}/options.json`, auth, async (c) => ok(c, await perDiemOptions(s.db, (await company(c)).id)));

  app.post(`${base}.json`, auth, async (c) => {
    const co = await company(c);
    const body = parseWith(PerDiemBody, c.get('body'));
    return ok(c, await createPerDiemEvent(s.db, co.id, body.per_diem_event, s.clock()), 201);
  });

  app.post(`${base}/:id/approve.json`, auth, async (c) => {
    const co = await company(c);
    return ok(c, await approvePerDiemEvent(s.db, co.id, eventId(c)));
  });

  app.post(`${base}/:id/close.json`, auth, async (c) => {
    const co = await company(c);
    return ok(c, await closePerDiemEvent(s.db, co.id, eventId(c), s.clock()));
  });

  return app;
}
