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
import { parseBracketedQuery } from '../http/bracketed-query';
import { ok } from '../http/envelope';
import { fail, parseWith } from '../http/errors';
import { gastosCompany, gastosCompanyByRfc } from './access';
import { companyStats, companyTickets } from './queries';
import { companyOfTickets, reviewTickets, type Decision } from './review';
import { CompanyViewQuery, LIST_PER_PAGE, MarkAsPaidBody, MarkAsRejectedBody } from './schemas';

export function companyViewRoutes(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  const query = async (c: Context<AppEnv>) => {
    const q = parseWith(CompanyViewQuery, parseBracketedQuery(new URL(c.req.url).searchParams));
    const co = await gastosCompanyByRfc(s.db, caller(c).userId, q.usuario.rfc_owner);
    return { co, year: q.date.year, month: q.date.month, page: q.page ?? 1, perPage: q.per_page ?? LIST_PER_PAGE };
  };

  app.get('/tickets/colaborators', auth, async (c) => {
    const { co, year, month, page, perPage } = await query(c);
    return ok(c, await companyTickets(s.db, co.id, year, month, page, perPage));
  });

  app.get('/tickets/colaborator_stats', auth, async (c) => {
    const { co, year, month } = await query(c);
    return ok(c, { stats: await companyStats(s.db, co.id, year, month) });
  });

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

  app.put('/tickets/mark_as_paid', auth, async (c) => review(c, 'aprobado', parseWith(MarkAsPaidBody, c.get('body'))));
  app.put('/tickets/mark_as_rejected', auth, async (c) => review(c, 'rechazado', parseWith(MarkAsRejectedBody, c.get('body'))));

  return app;
}
