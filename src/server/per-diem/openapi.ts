// The OpenAPI entries of src/server/per-diem's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { PerDiemBody } from './schemas';

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

export const PER_DIEM_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/api/v3/clients/{client_id}/per_diem_events.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Eventos de viáticos, el más nuevo primero, con el gasto aprobado y pendiente de los comprobantes de gasto (tipo 2) de su colaborador (o de los de su departamento, o de todos) entre sus fechas. ${manager}`,
    response: v.array(PerDiemEvent),
  },
  {
    method: 'get', path: '/api/v3/clients/{client_id}/per_diem_events/options.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Departamentos y colaboradores para 'Nuevo evento'. ${manager}`, response: Options,
  },
  {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events.json', tag: Tag, auth: true, params: client, body: PerDiemBody, status: 201, errors: [403, 404, 422],
    summary: `Nuevo evento (queda abierto): nombre requerido, depósito numérico y requerido, fecha de inicio hoy o posterior (hoy de la Ciudad de México), fin no anterior al inicio; departamento y colaborador opcionales, de la empresa. 422 con el mensaje. ${manager}`,
    response: PerDiemEvent,
  },
  {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events/{id}/approve.json', tag: Tag, auth: true, params: event, errors: [403, 404, 409],
    summary: `'Aprobar': abierto → aprobado; en otro estado 409. ${manager}`, response: PerDiemEvent,
  },
  {
    method: 'post', path: '/api/v3/clients/{client_id}/per_diem_events/{id}/close.json', tag: Tag, auth: true, params: event, errors: [403, 404, 409],
    summary: `'Cerrar evento': aprobado → cerrado; congela lo autorizado (el depósito) contra lo gastado (comprobantes aprobados y pendientes del evento); en otro estado 409. ${manager}`,
    response: PerDiemEvent,
  },
];
