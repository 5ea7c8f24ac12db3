// The company expense view's HTTP surface (contract in domain/company.ts): the month's
// tickets and stats of the company's collaborators, and the manager's 'Aprobar' / 'Rechazar'.
// Manager only, on a plan with Gastos (access.ts): outsider 404, collaborator 403, no Gastos 403.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { clients } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { gastosCompany, gastosCompanyByRfc } from './access';
import { collaborationsOf } from './membership';
import { companyStats, companyTickets } from './queries';
import { companyOfTickets, reviewTickets, type Decision } from './review';
import { CompanyViewQuery, LIST_PER_PAGE, MarkAsPaidBody, MarkAsRejectedBody } from './schemas';
import * as v from 'valibot';
import { defineRoute } from '../http/route';

// The OpenAPI descriptions of its answers.
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
const Collaborations = v.object({
  collaborations: v.array(
    v.object({ company_name: v.string(), company_rfc: v.string(), rfc: v.string(), area: v.string(), authorizer: v.string(), since: v.nullable(v.string()) }),
  ),
});

export function companyViewRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  /** The manager's company and the month the validated query names. */
  const scope = async (c: Context<AppEnv>, q: v.InferOutput<typeof CompanyViewQuery>) => {
    const co = await gastosCompanyByRfc(s.db, caller(c).userId, q.usuario.rfc_owner);
    return { co, year: q.date.year, month: q.date.month, page: q.page ?? 1, perPage: q.per_page ?? LIST_PER_PAGE };
  };

  defineRoute(app, {
    method: 'get', path: '/tickets/colaborators', tag: Tag, auth: true, params: { ...month, page: 'página (1..), 50 por página por omisión', per_page: 'tickets por página (1-1000)' }, errors: [403, 404],
    summary: `Gastos (tipo 2) del mes, paginados del más reciente al más antiguo (total = todos los del mes) de los colaboradores activos de la empresa, con username, user_name (el nombre y apellido con que la empresa lo invitó) y user_area (su departamento). Cada ticket revisado lleva review: {decision: 'aprobado'|'rechazado', reason} — el mismo campo aparece en los tickets del colaborador (/api/v2/tickets). ${manager}`,
    response: v.object({ tickets: v.array(v.record(v.string(), v.unknown())), total: v.number(), page: v.number(), per_page: v.number() }),
    query: CompanyViewQuery,
  }, auth, async (c, { query: q }) => {
    const { co, year, month, page, perPage } = await scope(c, q);
    return ok(c, await companyTickets(s.db, co.id, year, month, page, perPage));
  });

  defineRoute(app, {
    method: 'get', path: '/tickets/colaborator_stats', tag: Tag, auth: true, params: month, errors: [403, 404],
    summary: `Gasto aprobado: por mes del año, por departamento del mes (sin departamento: 'Otros'), las 5 categorías y los 5 establecimientos principales del mes. ${manager}`,
    response: Stats,
    query: CompanyViewQuery,
  }, auth, async (c, { query: q }) => {
    const { co, year, month } = await scope(c, q);
    return ok(c, { stats: await companyStats(s.db, co.id, year, month) });
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/collaborations.json', tag: Tag, auth: true,
    summary: 'Las empresas de las que el usuario es colaborador activo (invitación aceptada): nombre y RFC de la empresa, el RFC suyo que la empresa lee, su departamento y quién autoriza sus gastos. Lista vacía para quien no colabora con ninguna.',
    response: Collaborations,
  }, auth, async (c) => ok(c, { collaborations: await collaborationsOf(s.db, caller(c).userId) }));

  /** The company of a review: body.client_id, else the caller's company whose collaborators own the tickets. */
  const reviewingCompany = async (userId: number, clientId: number | undefined, ticketIds: readonly string[]) => {
    if (clientId !== undefined) return gastosCompany(s.db, userId, clientId);
    const owned = await s.db.select({ id: clients.id }).from(clients).where(eq(clients.userId, userId));
    const found = await companyOfTickets(s.db, owned.map((o) => o.id), ticketIds);
    if (found !== null) return gastosCompany(s.db, userId, found);
    const [member] = await s.db
      .select({ id: collaborators.id })
      .from(collaborators)
      .where(and(eq(collaborators.userId, userId), eq(collaborators.status, 'activo')))
      .limit(1);
    throw member ? fail(403, MSG.forbidden) : fail(404, MSG.notFound);
  };

  const review = async (c: Context<AppEnv>, decision: Decision, body: { tickets: string[]; client_id?: number | undefined; reason?: string }) => {
    const userId = caller(c).userId;
    const co = await reviewingCompany(userId, body.client_id, body.tickets);
    const changed = await reviewTickets(s.db, {
      companyClientId: co.id, reviewerId: userId, ticketIds: body.tickets, decision, reason: body.reason ?? null, now: s.clock(),
    });
    return ok(c, { message: decision === 'aprobado' ? MSG.ticketsApproved : MSG.ticketsRejected, tickets: changed });
  };

  defineRoute(app, {
    method: 'put', path: '/tickets/mark_as_paid', tag: Tag, auth: true, body: MarkAsPaidBody, errors: [403, 404],
    summary: `Aprobar tickets de colaboradores (estado 'aprobado'); client_id opcional nombra la empresa. Si algún id no es de la empresa: 404 y nada cambia. ${manager}`,
    response: Reviewed,
  }, auth, async (c, { body }) => review(c, 'aprobado', body));
  defineRoute(app, {
    method: 'put', path: '/tickets/mark_as_rejected', tag: Tag, auth: true, body: MarkAsRejectedBody, errors: [403, 404],
    summary: `Rechazar tickets de colaboradores (estado 'rechazado') con un motivo requerido (máximo 500 caracteres) que el colaborador ve en su ticket. Si algún id no es de la empresa: 404 y nada cambia. ${manager}`,
    response: Reviewed,
  }, auth, async (c, { body }) => review(c, 'rechazado', body));

  return app;
}
