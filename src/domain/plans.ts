// Plans (spec §3, §6, §9). Ids are a contract with the app-store and payment sides; prices are
// monthly MXN before IVA. Annual plans are billed as 12 × their monthly price.
export const IVA_FACTOR = 1.16;
export const COLLABORATOR_MONTHLY_PRICE = 89;
export const FREE_PLAN_ID = 1;
export const APP_STORE_PLAN_ID = 0;
/** The company plans: 4 and 5, and 6 and 7, which add per-diem control (Viáticos) to everything 4 and 5 have. */
export const COMPANY_PLAN_IDS: readonly number[] = [4, 5, 6, 7];
export const PER_DIEM_PLAN_IDS: readonly number[] = [6, 7];

export interface Plan {
  id: number;
  name: string;
  summary: string;
  /** Monthly price in MXN, before IVA. */
  price: number;
  /** Months billed per charge. */
  interval: 1 | 12;
  /** Whether it can be bought on the web (the app-store plan cannot). */
  purchasable: boolean;
}

const PERSONAL_FREE = 'Gráficas de gastos por categoría, facturas de los principales comercios y soporte por correo.';
const PROFESSIONAL =
  'Reporte de gastos, sincronización diaria con el SAT para personas físicas, facturación en más de 15,000 puntos de venta y soporte por chat.';
const COMPANY =
  'Gastos de tus colaboradores, sincronización con el SAT para empresas, aprobación o rechazo según tu política de viajes y soporte por chat.';
const COMPANY_PER_DIEM = `${COMPANY} Incluye control de viáticos por evento.`;

export const PLANS: readonly Plan[] = [
  { id: 0, name: 'Profesional (App Store)', summary: PROFESSIONAL, price: 89, interval: 1, purchasable: false },
  { id: 1, name: 'Gratuito', summary: PERSONAL_FREE, price: 0, interval: 1, purchasable: false },
  { id: 2, name: 'Profesional mensual', summary: PROFESSIONAL, price: 89, interval: 1, purchasable: true },
  { id: 3, name: 'Profesional anual', summary: PROFESSIONAL, price: 75, interval: 12, purchasable: true },
  { id: 4, name: 'Empresarial mensual', summary: COMPANY, price: 289, interval: 1, purchasable: true },
  { id: 5, name: 'Empresarial anual', summary: COMPANY, price: 240, interval: 12, purchasable: true },
  { id: 6, name: 'Empresarial con viáticos mensual', summary: COMPANY_PER_DIEM, price: 389, interval: 1, purchasable: true },
  { id: 7, name: 'Empresarial con viáticos anual', summary: COMPANY_PER_DIEM, price: 325, interval: 12, purchasable: true },
];

export function planById(id: number): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

export type SubscriptionStatus = 'none' | 'active' | 'past_due' | 'canceling' | 'canceled';

/** A paid plan's state (GET …/current.json): when its period ends and whether it ends there (cancelled). */
export interface SubscriptionState {
  client_id: number;
  plan_id: number;
  status: SubscriptionStatus;
  /** The end of the paid period (ISO), when there is a paid subscription. */
  current_period_end: string | null;
  /** True when the plan ends at current_period_end instead of renewing. */
  cancel_at_period_end: boolean;
}
