// The sync route's three screens rendered for an account (spec §2 SAT sync, §5, §6).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Account } from '../../../src/domain/account';
import { MSG } from '../../../src/domain/messages';

vi.mock('../../../src/offline/session', () => ({
  getSession: () => ({ token: 'tok', user_id: 7, email: 'a@b.mx', username: 'ana' }),
  subscribeSession: () => () => undefined,
}));
const { SyncBody } = await import('../../../src/app/sat-sync/sync-page');

const account = (over: Partial<Account>): Account => ({
  diverza_client_id: 1,
  rfc: 'GODE561231GR8',
  name: null,
  first_name: 'Ana',
  last_name: 'Gómez',
  plan_id: 2,
  subscription_id: null,
  card_brand: null,
  card_last4: null,
  card_exp_month: null,
  card_exp_year: null,
  active_until: null,
  payment_history: [],
  ciec: false,
  synchronized_at: null,
  num_reg_id_trib: null,
  residencia_fiscal: null,
  regimen_fiscal: '612',
  address: [],
  rfc_verified: false,
  rfc_verified_by: null,
  ...over,
});

describe('sync route', () => {
  it('free plan: the premium advert, not the form', () => {
    const html = renderToStaticMarkup(<SyncBody account={account({ plan_id: 1 })} />);
    expect(html).toContain('Función Premium');
    expect(html).toContain('Iniciar contacto');
    expect(html).not.toContain('Contraseña del SAT');
  });

  it('company RFC with the feature: the not-available notice', () => {
    const html = renderToStaticMarkup(<SyncBody account={account({ plan_id: 4, rfc: 'EKU9003173C9' })} />);
    expect(html).toContain(MSG.satCompanyOnly);
    expect(html).not.toContain('Contraseña del SAT');
  });

  it("persona física with the feature: status, last connection, the password and confirmation, e.firma", () => {
    const off = renderToStaticMarkup(<SyncBody account={account({})} />);
    expect(off).toContain('Sin conexión');
    expect(off).toContain('Aún no se ha sincronizado');
    expect(off).toContain('Contraseña del SAT');
    expect(off).toContain('Confirma tu contraseña');
    expect(off).toContain('type="password"');
    expect(off).toContain('Método oficial del SAT: e.firma');
    expect(off).toContain('accept=".cer"');
    expect(off).toContain('accept=".key"');
    expect(off).not.toContain('>Desconectar<');
    const on = renderToStaticMarkup(<SyncBody account={account({ ciec: true, synchronized_at: '2026-11-05T21:07:00.000Z' })} />);
    expect(on).toContain('Conexión activa');
    expect(on).toContain('noviembre 05 del 2026 a las 3:07 pm');
    expect(on).toContain('Desconectar');
  });
});
