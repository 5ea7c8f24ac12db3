import { describe, expect, it } from 'vitest';
import { FEATURES, hasFeature, type Feature } from '../../src/domain/feature-gates';

const PERSON = 'GODE561231GR8'; // 13 characters
const COMPANY = 'ABC010101AB1'; // 12 characters
const PLAN_IDS = [0, 1, 2, 3, 4, 5, 6, 7];
const SUBS = [null, 0, 1, 2, 3];

// The grants of spec §6 written out as data (not as the same boolean formula): every other combination is denied.
function expected(feature: Feature, plan: number, kind: 'person' | 'company', sub: number | null): boolean {
  const s = sub ?? 0;
  const table: Record<Feature, { plans: Record<'person' | 'company', number[]>; subs: Record<'person' | 'company', number[]> }> = {
    // Plans 6 and 7 are 4 and 5 plus Viáticos: they pass every gate 4 and 5 pass.
    SincronizacionSAT: { plans: { person: [0, 2, 3, 4, 5, 6, 7], company: [4, 5, 6, 7] }, subs: { person: [2, 3], company: [3] } },
    Viaticos: { plans: { person: [], company: [6, 7] }, subs: { person: [], company: [] } },
    Colaboradores: { plans: { person: [], company: [4, 5, 6, 7] }, subs: { person: [3], company: [3] } },
    Gastos: { plans: { person: [], company: [4, 5, 6, 7] }, subs: { person: [3], company: [3] } },
  };
  const t = table[feature];
  return t.plans[kind].includes(plan) || t.subs[kind].includes(s);
}

describe('feature gates (spec §6)', () => {
  for (const feature of FEATURES) {
    for (const plan of PLAN_IDS) {
      for (const [kind, rfc] of [['person', PERSON], ['company', COMPANY]] as const) {
        for (const sub of SUBS) {
          const want = expected(feature, plan, kind, sub);
          it(`${feature} plan ${plan} ${kind} subscription ${String(sub)} → ${want ? 'allowed' : 'denied'}`, () => {
            expect(hasFeature(feature, { plan_id: plan, rfc, subscription_id: sub })).toBe(want);
          });
        }
      }
    }
  }

  it('spot checks read straight from the spec', () => {
    expect(hasFeature('SincronizacionSAT', { plan_id: 2, rfc: PERSON, subscription_id: null })).toBe(true);
    expect(hasFeature('SincronizacionSAT', { plan_id: 2, rfc: COMPANY, subscription_id: null })).toBe(false);
    expect(hasFeature('SincronizacionSAT', { plan_id: 1, rfc: COMPANY, subscription_id: 2 })).toBe(false);
    expect(hasFeature('Viaticos', { plan_id: 4, rfc: COMPANY, subscription_id: 3 })).toBe(false);
    expect(hasFeature('Gastos', { plan_id: 5, rfc: PERSON, subscription_id: null })).toBe(false);
    expect(hasFeature('Colaboradores', { plan_id: 1, rfc: PERSON, subscription_id: 3 })).toBe(true);
  });

  it('plans 6 and 7 include everything 4 and 5 do, plus Viáticos', () => {
    for (const plan_id of [6, 7]) {
      const company = { plan_id, rfc: COMPANY, subscription_id: null };
      for (const feature of FEATURES) expect(hasFeature(feature, company), `${feature} on plan ${plan_id}`).toBe(true);
      // Still company plans: a persona física on them gets neither collaborators nor per-diem control.
      expect(hasFeature('Colaboradores', { ...company, rfc: PERSON })).toBe(false);
      expect(hasFeature('Viaticos', { ...company, rfc: PERSON })).toBe(false);
    }
    for (const plan_id of [4, 5]) expect(hasFeature('Viaticos', { plan_id, rfc: COMPANY, subscription_id: null })).toBe(false);
  });
});
