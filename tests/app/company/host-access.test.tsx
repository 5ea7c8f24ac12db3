// What the manager sees of a collaborator (spec §6): the 'Ver datos' facts from the profile
// (never a password field), and the PDF / XML links of a collaborator's received invoice in 'Gastos'.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CompanyTickets } from '../../../src/app/company-view/company-tickets';
import { ProfileFacts } from '../../../src/app/company/collaborator-profile-dialog';
import { profileFacts, regimeLabel } from '../../../src/app/company/collaborator-profile-model';
import type { OAuthProfile } from '../../../src/domain/oauth';
import { receipt, ticket } from '../tickets/fixtures';

const address = { street: 'Av. Juárez', external_number: '10', internal_number: '', neighborhood: 'Centro', city: 'Puebla', state: 'Puebla', country: 'MEX', zip_code: '72000' };
const profile = (over: Partial<OAuthProfile['account']> = {}): OAuthProfile => ({
  user: { username: 'ana_lopez', email: 'ana@example.com' },
  account: { rfc: 'LOVA850101AB1', name: null, first_name: 'Ana', last_name: 'López', regimen_fiscal: '612', address: [address], residencia_fiscal: null, num_reg_id_trib: null, ...over },
});

describe("the manager's view of a collaborator", () => {
  it('lists the profile and tax data in order, the regime with its SAT name, the address in one line', () => {
    const facts = profileFacts(profile());
    expect(facts.map((f) => f.label)).toEqual(['Usuario', 'E-mail', 'RFC', 'Nombre o razón social', 'Régimen fiscal', 'Domicilio']);
    expect(facts.find((f) => f.label === 'Nombre o razón social')?.value).toBe('Ana López');
    expect(facts.find((f) => f.label === 'Régimen fiscal')?.value).toBe(regimeLabel('612'));
    expect(regimeLabel('612')).toMatch(/^612 \S/);
    expect(regimeLabel('999')).toBe('999');
    expect(facts.find((f) => f.label === 'Domicilio')?.value).toBe('Av. Juárez 10, Centro, Puebla, Puebla, C.P. 72000');
  });

  it('shows foreign residence only when known, and no address row without one', () => {
    const facts = profileFacts(profile({ address: [], residencia_fiscal: 'USA', num_reg_id_trib: '123456789' }));
    expect(facts.map((f) => f.label)).toEqual(['Usuario', 'E-mail', 'RFC', 'Nombre o razón social', 'Régimen fiscal', 'Residencia fiscal', 'NumRegIdTrib']);
  });

  it('renders the facts as a definition list without any password', () => {
    const html = renderToStaticMarkup(<ProfileFacts profile={profile()} />);
    expect(html).toContain('<dt class="muted">RFC</dt><dd>LOVA850101AB1</dd>');
    expect(html).toContain('ana@example.com');
    expect(html).not.toMatch(/contraseña|password/i);
  });

  it("links the PDF and XML of a collaborator's received invoice in 'Gastos', and nothing without one", () => {
    const withReceipt = { ...ticket({ ticket_id: 't-1', receipt }), username: 'ana', user_area: 'Ventas' };
    const plain = { ...ticket({ ticket_id: 't-2' }), username: 'ana', user_area: 'Ventas' };
    const html = renderToStaticMarkup(<CompanyTickets tickets={[withReceipt, plain]} selected={new Set()} onToggle={() => undefined} onToggleAll={() => undefined} companies={new Map()} />);
    // Buttons that ask for a short-lived signed link on click: no URL, and no token, in the page.
    expect(html.match(/<button type="button" class="btn btn--ghost btn--small" aria-label="PDF de [^"]* de ana del [^"]*">/g)).toHaveLength(1);
    expect(html.match(/<button type="button" class="btn btn--ghost btn--small" aria-label="XML de [^"]* de ana del [^"]*">/g)).toHaveLength(1);
    expect(html).not.toContain('href=');
    expect(html).not.toContain('access_token');
    expect(html).not.toContain('Ver imagen');
  });
});
