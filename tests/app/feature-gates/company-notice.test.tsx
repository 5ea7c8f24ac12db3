// A company screen on a persona física's RFC: the way to a company account, never a dead end.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CompanyNotice } from '../../../src/app/feature-gates/company-gate';
import { LayoutContext, type LayoutState } from '../../../src/app/layout/layout-context';
import type { Account } from '../../../src/domain/account';

const account = (over: Partial<Account>): Account => ({
  diverza_client_id: 1, rfc: 'GODE561231GR8', name: null, first_name: 'Ana', last_name: 'Gómez', plan_id: 1, subscription_id: null,
  card_brand: null, card_last4: null, card_exp_month: null, card_exp_year: null, active_until: null, payment_history: [], ciec: false,
  synchronized_at: null, num_reg_id_trib: null, residencia_fiscal: null, regimen_fiscal: '612', address: [], rfc_verified: false,
  rfc_verified_by: null, ...over,
});

function notice(accounts: Account[]): string {
  const layout = { accounts, selected: accounts[0], selectAccount: () => undefined } as unknown as LayoutState;
  return renderToStaticMarkup(
    <LayoutContext.Provider value={layout}>
      <CompanyNotice rfc="GODE561231GR8" />
    </LayoutContext.Provider>,
  );
}

describe('CompanyNotice', () => {
  it('offers each company account of the user by name', () => {
    const html = notice([account({}), account({ diverza_client_id: 2, rfc: 'GOM010101AB1', name: 'Gómez Consultores SC', first_name: null, last_name: null })]);
    expect(html).toContain('Solo para empresas');
    expect(html).toMatch(/<button[^>]*>Usar Gómez Consultores SC<\/button>/);
    expect(html).not.toContain('Añadir RFC');
  });

  it('without one, links to adding a company RFC', () => {
    const html = notice([account({})]);
    expect(html).toMatch(/<a href="\/#\/add-client"[^>]*>Añadir RFC<\/a>/);
    expect(html).not.toContain('Usar ');
  });
});
