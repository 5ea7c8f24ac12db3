// What the pricing and subscription screens show, as pure functions (spec §2 Pricing / Subscription
// profile, §9 prices, IVA, dates). Amounts charged mirror the server: price × months × 1.16.
import { MONTH_NAMES } from '../../domain/dates';
import { APP_STORE_PLAN_ID, IVA_FACTOR, planById, type Plan } from '../../domain/plans';
import { roundCents } from '../../domain/money';

export interface PlanCard {
  key: string;
  title: string;
  /** [monthly] or [monthly, annual]: the toggle swaps between them. */
  planIds: readonly [number] | readonly [number, number];
}

/** Spec §2 Pricing: three personal cards; the professional and company ones toggle monthly/annual. */
export const PERSONAL_CARDS: readonly PlanCard[] = [
  { key: 'free', title: 'Gratuito', planIds: [1] },
  { key: 'professional', title: 'Profesional', planIds: [2, 3] },
  { key: 'company', title: 'Empresarial', planIds: [4, 5] },
];

/** The company pricing page: the company plan and the company plan with per-diem control (6/7). */
export const COMPANY_CARDS: readonly PlanCard[] = [
  { key: 'company', title: 'Empresarial', planIds: [4, 5] },
  { key: 'per-diem', title: 'Empresarial con viáticos', planIds: [6, 7] },
];

export function cardPlan(card: PlanCard, annual: boolean): Plan {
  const id = annual && card.planIds.length === 2 ? card.planIds[1] : card.planIds[0];
  const plan = planById(id);
  if (!plan) throw new Error(`plan ${id}`);
  return plan;
}

/** A card's 'Seleccionar' is off when the account has that plan in either period, or while loading. */
export function selectDisabled(card: PlanCard, accountPlanId: number | undefined, loading: boolean): boolean {
  return loading || accountPlanId === undefined || (card.planIds as readonly number[]).includes(accountPlanId) || !cardPlan(card, false).purchasable;
}

export const mustUseAppStore = (planId: number | undefined) => planId === APP_STORE_PLAN_ID;

/** Monthly price with IVA (the payment-method display, spec §9). */
export const monthlyWithIva = (plan: Plan) => roundCents(plan.price * IVA_FACTOR);

/** What one charge of the plan costs with IVA (annual: 12 months at once). */
export const chargeTotal = (plan: Plan) => roundCents(plan.price * plan.interval * IVA_FACTOR);

/** The checkout dialog's amount: centavos, currency mxn (spec §7). */
export const checkoutAmountCents = (plan: Plan) => Math.round(chargeTotal(plan) * 100);

/** Next due date DD/MMMM/YYYY (spec §9), Mexico City's calendar: 05/diciembre/2026. */
export function dueDate(iso: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(iso));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return `${String(get('day')).padStart(2, '0')}/${MONTH_NAMES[get('month') - 1]}/${get('year')}`;
}

/** 'Visa 4242', or the brand alone (spec §2 payment history). */
export function cardLabel(brand: string | null, last4: string | null): string {
  if (!brand) return last4 ? `•••• ${last4}` : '—';
  return last4 ? `${brand} ${last4}` : brand;
}
