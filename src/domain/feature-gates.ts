// Feature gates of spec §6: which premium features an account's plan (or app-store subscription) unlocks.
// The same function answers on the server (403) and in the app (premium advert instead of the feature).
import { COMPANY_PLAN_IDS, PER_DIEM_PLAN_IDS } from './plans';
import { RFC_COMPANY_LENGTH } from './rfc';

export const FEATURES = ['SincronizacionSAT', 'Viaticos', 'Colaboradores', 'Gastos'] as const;
export type Feature = (typeof FEATURES)[number];

export interface GateSubject {
  plan_id: number;
  rfc: string;
  subscription_id: number | null;
}

const PERSON_RFC_LENGTH = RFC_COMPANY_LENGTH + 1;

/**
 * Spec §6, rule for rule, with one reading: its "plan 4 or 5" is a company plan, and plans 6 and 7 are
 * company plans too (they add Viáticos to everything 4 and 5 include), so they pass the SAT,
 * Colaboradores and Gastos gates as 4 and 5 do. `subscription_id` keeps its own app-store rules.
 */
export function hasFeature(feature: Feature, a: GateSubject): boolean {
  const person = a.rfc.length === PERSON_RFC_LENGTH;
  const company = a.rfc.length === RFC_COMPANY_LENGTH;
  const sub = a.subscription_id ?? 0;
  switch (feature) {
    case 'SincronizacionSAT':
      return ([0, 2, 3].includes(a.plan_id) && person) || COMPANY_PLAN_IDS.includes(a.plan_id) || (sub > 1 && person) || sub > 2;
    case 'Viaticos':
      return PER_DIEM_PLAN_IDS.includes(a.plan_id) && company;
    case 'Colaboradores':
    case 'Gastos':
      return (COMPANY_PLAN_IDS.includes(a.plan_id) && company) || sub > 2;
  }
}
