// The OpenAPI entries of src/server/company-view's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { MarkAsPaidBody, MarkAsRejectedBody } from './schemas';

const Tag = 'Empresa';
const manager = 'Solo el dueño de la cuenta de empresa con plan Gastos (4 o 5): 404 si no es suya, 403 a sus colaboradores y sin el plan';
const month = {
  'usuario[rfc_owner]': '*RFC de la cuenta de empresa',
  'date[year]': '*año',
  'date[month]': '*mes (1-12)',
  action: 'company-view-tickets / company-view-stats (informativo)',
};
const Group = v.array(v.object({ label: v.string(), value: v.number() }));
const Stats = v.object({
  stats: v.object({ monthly: v.array(v.object({ month: v.string(), sum: v.number() })), departments: Group, categories: Group, venues: Group }),
});
const Reviewed = v.object({ message: v.string(), tickets: v.number() });

export const COMPANY_VIEW_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/tickets/colaborators', tag: Tag, auth: true, params: { ...month, page: 'página (1..), 50 por página por omisión', per_page: 'tickets por página (1-1000)' }, errors: [403, 404],
    summary: `Gastos (tipo 2) del mes, paginados del más reciente al más antiguo (total = todos los del mes) de los colaboradores activos de la empresa, con username y user_area (su departamento). Cada ticket revisado lleva review: {decision: 'aprobado'|'rechazado', reason} — el mismo campo aparece en los tickets del colaborador (/api/v2/tickets). ${manager}`,
    response: v.object({ tickets: v.array(v.record(v.string(), v.unknown())), total: v.number(), page: v.number(), per_page: v.number() }),
  },
  {
    method: 'get', path: '/tickets/colaborator_stats', tag: Tag, auth: true, params: month, errors: [403, 404],
    summary: `Gasto aprobado: por mes del año, por departamento del mes (sin departamento: 'Otros'), las 5 categorías y los 5 establecimientos principales del mes. ${manager}`,
    response: Stats,
  },
  {
    method: 'put', path: '/tickets/mark_as_paid', tag: Tag, auth: true, body: MarkAsPaidBody, errors: [403, 404],
    summary: `Aprobar tickets de colaboradores (estado 'aprobado'); client_id opcional nombra la empresa. Si algún id no es de la empresa: 404 y nada cambia. ${manager}`,
    response: Reviewed,
  },
  {
    method: 'put', path: '/tickets/mark_as_rejected', tag: Tag, auth: true, body: MarkAsRejectedBody, errors: [403, 404],
    summary: `Rechazar tickets de colaboradores (estado 'rechazado') con un motivo requerido (máximo 500 caracteres) que el colaborador ve en su ticket. Si algún id no es de la empresa: 404 y nada cambia. ${manager}`,
    response: Reviewed,
  },
];
