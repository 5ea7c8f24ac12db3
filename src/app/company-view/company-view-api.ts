// The company expense view's calls (spec §7 'Company tickets', 'Company stats', 'Mark as paid / rejected'),
// typed by the contract in domain/company.ts.
import type { CompanyStats } from '../../domain/company';
import type { Ticket } from '../../domain/ticket';
import { api } from '../api/client';

const monthParams = (rfc: string, year: number, month: number, action: string) => ({
  'usuario[rfc_owner]': rfc,
  'date[year]': year,
  'date[month]': month,
  action,
});

/** A collaborator's ticket, with the name the company invited them by (older servers send none). */
export type CompanyTicket = Ticket & { user_name?: string };

/** Who spent it, as the manager knows them: the name, else the username. */
export const collaboratorOf = (t: CompanyTicket): string => t.user_name?.trim() || t.username;

/** One page of the month's tickets (newest first) and the month's total. */
export interface TicketPage {
  tickets: CompanyTicket[];
  total: number;
  page: number;
  per_page: number;
}

export const PER_PAGE = 50;

/** The query keys of a month's reads: a review invalidates the month's tickets and stats. */
export const companyViewKeys = {
  month: (rfc: string, year: number, month: number) => ['company-view', rfc, year, month] as const,
  tickets: (rfc: string, year: number, month: number, page: number) => ['company-view', rfc, year, month, 'tickets', page] as const,
  stats: (rfc: string, year: number, month: number) => ['company-view', rfc, year, month, 'stats'] as const,
};

export const getCompanyTickets = (rfc: string, year: number, month: number, page: number, signal?: AbortSignal, perPage = PER_PAGE) =>
  api.get<TicketPage>('/tickets/colaborators', { ...monthParams(rfc, year, month, 'company-view-tickets'), page, per_page: perPage }, signal);

/** Every ticket of the month, 1,000 a call (the CSV report). */
export async function allCompanyTickets(rfc: string, year: number, month: number): Promise<CompanyTicket[]> {
  const out: CompanyTicket[] = [];
  for (let page = 1; ; page++) {
    const got = await getCompanyTickets(rfc, year, month, page, undefined, 1000);
    out.push(...got.tickets);
    if (got.tickets.length === 0 || out.length >= got.total) return out;
  }
}

export const getCompanyStats = (rfc: string, year: number, month: number, signal?: AbortSignal) =>
  api.get<{ stats: CompanyStats }>('/tickets/colaborator_stats', monthParams(rfc, year, month, 'company-view-stats'), signal);

export interface Reviewed {
  message: string;
  tickets: number;
}

export const approveTickets = (clientId: number, ids: readonly string[]) =>
  api.put<Reviewed>('/tickets/mark_as_paid', { tickets: ids, client_id: clientId });

export const rejectTickets = (clientId: number, ids: readonly string[], reason: string) =>
  api.put<Reviewed>('/tickets/mark_as_rejected', { tickets: ids, reason, client_id: clientId });
