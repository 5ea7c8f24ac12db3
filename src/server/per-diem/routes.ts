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
import { fail } from '../http/errors';
import { approvePerDiemEvent, closePerDiemEvent, createPerDiemEvent, listPerDiemEvents, perDiemOptions } from './events';
import { PerDiemBody } from './schemas';
import * as v from 'valibot';
import { defineRoute } from '../http/route';

// The OpenAPI descriptions of its answers.
const Tag = 'Viáticos';
const client = { client_id: '*diverza_client_id de la cuenta de empresa (RFC de 12 caracteres) del usuario' };
const event = { ...client, id: '*id del evento' };
const manager =
  'Solo el dueño de la cuenta de empresa con plan Viáticos (6 o 7): 404 si la cuenta no es suya, 403 a sus colaboradores y sin el plan. Aprobar y cerrar también son solo del dueño';
const PerDiemEvent = v.object({
  id: v.number(),
  status: v.picklist(['open', 'approved', 'closed']),
  start_date: v.string(),
  end_date: v.string(),
  area: v.nullable(v.string()),
  area_id: v.nullable(v.number()),
  username: v.nullable(v.string()),
  collaborator_id: v.nullable(v.number()),
  event_name: v.string(),
  deposit: v.number(),
  authorized_spending: v.number(),
  spending_pending_of_authorization_: v.number(),
  notes: v.string(),
  authorized_total: v.nullable(v.number()),
  spent_total: v.nullable(v.number()),
  closed_at: v.nullable(v.string()),
});
const Options = v.object({
  areas: v.array(v.object({ id: v.number(), area: v.string() })),
  collaborators: v.array(v.object({ id: v.number(), name: v.string(), area_id: v.nullable(v.number()) })),
});

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

  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/per_diem_events.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Eventos de viáticos, el más nuevo primero, con el gasto aprobado y pendiente de los comprobantes de gasto (tipo 2) de su colaborador (o de los de su departamento, o de todos) entre sus fechas. ${manager}`,
    response: v.array(PerDiemEvent),
  }, auth, async (c) => ok(c, await listPerDiemEvents(s.db, (await company(c)).id)));

  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/per_diem_events/options.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Departamentos y colaboradores para 'Nuevo evento'. ${manager}`, response: Options,
  }, auth, async (c) => ok(c, await perDiemOptions(s.db, (await company(c)).id)));

  defineRoute(app, {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events.json', tag: Tag, auth: true, params: client, body: PerDiemBody, status: 201, errors: [403, 404, 422], guard: company,
    summary: `Nuevo evento (queda abierto): nombre requerido, depósito numérico y requerido, fecha de inicio hoy o posterior (hoy de la Ciudad de México), fin no anterior al inicio; departamento y colaborador opcionales, de la empresa. 422 con el mensaje. ${manager}`,
    response: PerDiemEvent,
  }, auth, async (c, { body, guard: co }) => {
    return ok(c, await createPerDiemEvent(s.db, co.id, body.per_diem_event, s.clock()), 201);
  });

  defineRoute(app, {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events/{id}/approve.json', tag: Tag, auth: true, params: event, errors: [403, 404, 409],
    summary: `'Aprobar': abierto → aprobado; en otro estado 409. ${manager}`, response: PerDiemEvent,
  }, auth, async (c) => {
    const co = await company(c);
    return ok(c, await approvePerDiemEvent(s.db, co.id, eventId(c)));
  });

  defineRoute(app, {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events/{id}/close.json', tag: Tag, auth: true, params: event, errors: [403, 404, 409],
    summary: `'Cerrar evento': aprobado → cerrado; congela lo autorizado (el depósito) contra lo gastado (comprobantes aprobados y pendientes del evento); en otro estado 409. ${manager}`,
    response: PerDiemEvent,
  }, auth, async (c) => {
    const co = await company(c);
    return ok(c, await closePerDiemEvent(s.db, co.id, eventId(c), s.clock()));
  });

  return app;
}
