// What a plan charges (spec §9): monthly price × months of the period (12 for annual plans), company
// plans plus 89 a month per active collaborator, all × 1.16 IVA. MXN rounded to cents.
import { COLLABORATOR_MONTHLY_PRICE, COMPANY_PLAN_IDS, IVA_FACTOR, type Plan } from '../../domain/plans';
import { roundCents } from '../../domain/money';

export function chargeAmount(plan: Plan, activeCollaborators = 0): number {
  const perMonth = plan.price + (COMPANY_PLAN_IDS.includes(plan.id) ? COLLABORATOR_MONTHLY_PRICE * activeCollaborators : 0);
  return roundCents(perMonth * plan.interval * IVA_FACTOR);
}

/** The end of a period that starts at `from`: same day-of-month `months` later (clamped to the month's end). */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * Active collaborators per company account, for the price of a company plan: the 'activo' rows of
 * `collaborators` (collaborator-count.ts activeCollaboratorCounter, the default of checkout and renewals).
 */
export type CollaboratorCounter = (clientIds: readonly number[]) => Promise<Map<number, number>>;
export const noCollaborators: CollaboratorCounter = async () => new Map();
