import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../../src/domain/account';
import { MSG } from '../../../src/domain/messages';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

const EMPTY_ADDRESS = { street: '', external_number: '', internal_number: '', neighborhood: '', city: '', state: '', zip_code: '' };

describe.each(DRIVERS)('tax accounts (user_clients, new_client, update_client) on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it("lists the demo user's two seeded accounts in the Account shape", async () => {
    const token = (await h.call('POST', '/api/v2/login', { body: { user: { login: 'demo', password: 'cuentasclaras' } } })).json.response.token;
    const r = await h.call('GET', '/user_clients', { token });
    expect(r.status).toBe(200);
    const accounts = r.json.response as Account[];
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toEqual({
      diverza_client_id: expect.any(Number),
      regimen_fiscal: '612',
      rfc: 'XIQB891116QE4',
      name: null,
      first_name: 'BERENICE',
      last_name: 'XIMO QUEZADA',
      plan_id: 1,
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
      address: [{ ...EMPTY_ADDRESS, country: 'MEX', zip_code: '88965' }],
      // The demo seed proves its RFCs through the simulated SAT portal, which knows their CIECs.
      rfc_verified: true,
      rfc_verified_by: 'sat',
    });
    expect(accounts[1]).toMatchObject({ rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE', first_name: null, last_name: null, plan_id: 1 });
  });

  it('creates empresa, persona and extranjero accounts with plan 1', async () => {
    const u = await h.signUp('nc');
    const empresa = await h.call('POST', '/new_client', {
      token: u.token,
      body: {
        client: { rfc: 'abc010101ab1', name: ' Abarrotes del Centro SA de CV ', first_name: '', last_name: '' },
        ubication_data: { ...EMPTY_ADDRESS, street: 'Reforma', external_number: '10', city: 'CDMX', state: 'CDMX', zip_code: '06600', country: '' },
      },
    });
    expect(empresa.status).toBe(200);
    expect(empresa.json.response).toMatchObject({
      rfc: 'ABC010101AB1',
      name: 'Abarrotes del Centro SA de CV',
      first_name: null,
      last_name: null,
      plan_id: 1,
      address: [{ street: 'Reforma', external_number: '10', city: 'CDMX', state: 'CDMX', zip_code: '06600', country: 'MEX' }],
    });
    const persona = await h.call('POST', '/new_client', {
      token: u.token,
      body: { client: { rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez Díaz', name: null }, extra: 'ignorado' },
    });
    expect(persona.status).toBe(200);
    expect(persona.json.response).toMatchObject({ rfc: 'GODE561231GR8', first_name: 'Emma', last_name: 'Gómez Díaz', name: null });
    const extranjero = await h.call('POST', '/new_client', {
      token: u.token,
      body: {
        client: { rfc: 'XEXX010101000', name: 'Acme Inc.' },
        ubication_data: { residencia_fiscal: 'usa', num_reg_id_trib: '123456789' },
      },
    });
    expect(extranjero.status).toBe(200);
    expect(extranjero.json.response).toMatchObject({ rfc: 'XEXX010101000', name: 'Acme Inc.', residencia_fiscal: 'USA', num_reg_id_trib: '123456789' });
    const list = await h.call('GET', '/user_clients', { token: u.token });
    expect((list.json.response as Account[]).map((a) => a.rfc)).toEqual(['ABC010101AB1', 'GODE561231GR8', 'XEXX010101000']);
  });

  it('checks the tax data with the spec messages', async () => {
    const u = await h.signUp('ncchk');
    const cases: [Record<string, unknown>, string][] = [
      [{ client: { rfc: 'ABC0101', name: 'X' } }, MSG.rfcInvalid],
      [{ client: { rfc: 'ABC011301AB1', name: 'X' } }, MSG.rfcInvalid], // month 13
      [{ client: { rfc: 'ABC010101AB1', name: '  ' } }, MSG.missingInfo],
      [{ client: { rfc: 'GODE561231GR8', first_name: 'Emma' } }, MSG.missingInfo],
      [{ client: { rfc: 'XEXX010101000', name: 'Acme' }, ubication_data: { residencia_fiscal: 'USA' } }, MSG.missingInfo],
      [{ client: { rfc: 'XEXX010101000', name: 'Acme' }, ubication_data: { residencia_fiscal: 'QQQ', num_reg_id_trib: '1' } }, MSG.countryInvalid],
      [{ client: { rfc: 12 } }, MSG.rfcInvalid],
      [{ client: { rfc: 'ABC010101AB1', name: 'x'.repeat(256) } }, MSG.missingInfo],
    ];
    for (const [body, message] of cases) {
      const r = await h.call('POST', '/new_client', { token: u.token, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json).toEqual({ errors: [message] });
    }
    expect((await h.call('GET', '/user_clients', { token: u.token })).json.response).toEqual([]);
  });

  it('refuses the same RFC twice for one user with 422, but another user may hold it', async () => {
    const a = await h.signUp('dupa');
    const b = await h.signUp('dupb');
    const body = { client: { rfc: 'DUP010101AB1', name: 'Duplicada' } };
    expect((await h.call('POST', '/new_client', { token: a.token, body })).status).toBe(200);
    const again = await h.call('POST', '/new_client', { token: a.token, body: { client: { rfc: 'dup010101ab1', name: 'Otra' } } });
    expect(again.status).toBe(422);
    expect(again.json).toEqual({ errors: [MSG.rfcTaken] });
    expect((await h.call('POST', '/new_client', { token: b.token, body })).status).toBe(200);
  });

  it("edits the caller's own account and never another user's", async () => {
    const a = await h.signUp('upa');
    const b = await h.signUp('upb');
    const created = (await h.call('POST', '/new_client', { token: a.token, body: { client: { rfc: 'UPD010101AB1', name: 'Antes' } } })).json
      .response as Account;
    const edited = await h.call('PUT', '/update_client', {
      token: a.token,
      body: { usuario: { token: a.token }, client: { diverza_client_id: String(created.diverza_client_id), rfc: 'UPD010101AB1', name: 'Después' } },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.response).toMatchObject({ diverza_client_id: created.diverza_client_id, name: 'Después', plan_id: 1 });

    const foreign = await h.call('PUT', '/update_client', {
      token: b.token,
      body: { client: { diverza_client_id: created.diverza_client_id, rfc: 'UPD010101AB1', name: 'Robada' } },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ errors: [MSG.notFound] });
    expect(foreign.text).not.toContain('Después');
    const still = (await h.call('GET', '/user_clients', { token: a.token })).json.response as Account[];
    expect(still[0]?.name).toBe('Después');

    const missing = await h.call('PUT', '/update_client', { token: a.token, body: { client: { diverza_client_id: 999999, rfc: 'UPD010101AB1', name: 'X' } } });
    expect(missing.status).toBe(404);

    const toPerson = await h.call('PUT', '/update_client', {
      token: a.token,
      body: { client: { diverza_client_id: created.diverza_client_id, rfc: 'UPDA010101AB1', name: 'X' } },
    });
    expect(toPerson.status).toBe(400);
    // An edit speaks of updating, not of registering.
    expect(toPerson.json).toEqual({ errors: [MSG.missingInfoUpdate] });
  });

  it('keeps the postal code and regime CFDI 4.0 needs, checked when given', async () => {
    const u = await h.signUp('cpre');
    const made = await h.call('POST', '/new_client', {
      token: u.token,
      body: { client: { rfc: 'CPR010101AB1', name: 'Con CP', regimen_fiscal: '601' }, ubication_data: { zip_code: '64000' } },
    });
    expect(made.status).toBe(200);
    expect(made.json.response).toMatchObject({ regimen_fiscal: '601', address: [expect.objectContaining({ zip_code: '64000' })] });
    const badCp = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'CPS010101AB1', name: 'X' }, ubication_data: { zip_code: '640' } } });
    expect(badCp.status).toBe(400);
    expect(badCp.json).toEqual({ errors: [MSG.postalCodeInvalid] });
    // 612 is a regime of personas físicas: not for a 12-character RFC
    const badRegime = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'CPS010101AB1', name: 'X', regimen_fiscal: '612' } } });
    expect(badRegime.status).toBe(400);
    expect(badRegime.json).toEqual({ errors: [MSG.regimeInvalid] });
    // without them registering still works; an edit fills them in, and an edit without them keeps them
    const plain = (await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'CPSA010101AB1', first_name: 'Ana', last_name: 'Paz' } } })).json.response as Account;
    expect(plain.regimen_fiscal).toBe('');
    const id = plain.diverza_client_id;
    const filled = await h.call('PUT', '/update_client', {
      token: u.token,
      body: { client: { diverza_client_id: id, rfc: 'CPSA010101AB1', first_name: 'Ana', last_name: 'Paz', zip_code: '26015', regimen_fiscal: '612' } },
    });
    expect(filled.json.response).toMatchObject({ regimen_fiscal: '612', address: [expect.objectContaining({ zip_code: '26015' })] });
    const kept = await h.call('PUT', '/update_client', { token: u.token, body: { client: { diverza_client_id: id, rfc: 'CPSA010101AB1', first_name: 'Ana', last_name: 'Paz Gil' } } });
    expect(kept.json.response).toMatchObject({ last_name: 'Paz Gil', regimen_fiscal: '612', address: [expect.objectContaining({ zip_code: '26015' })] });
    const wrong = await h.call('PUT', '/update_client', { token: u.token, body: { client: { diverza_client_id: id, rfc: 'CPSA010101AB1', first_name: 'Ana', last_name: 'Paz', zip_code: 'ABCDE' } } });
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ errors: [MSG.postalCodeInvalid] });
  });

  it('refuses an edit that empties or mangles the postal code, and keeps the stored one', async () => {
    const u = await h.signUp('cpedit');
    const made = (await h.call('POST', '/new_client', {
      token: u.token,
      body: { client: { rfc: 'CPE010101AB1', name: 'Con CP', regimen_fiscal: '601' }, ubication_data: { zip_code: '64000' } },
    })).json.response as Account;
    const edit = (zip_code: unknown) =>
      h.call('PUT', '/update_client', { token: u.token, body: { client: { diverza_client_id: made.diverza_client_id, rfc: 'CPE010101AB1', name: 'Con CP', zip_code } } });
    for (const zip of ['', '   ', '640', '6400A', '123456', '64 00', '٦٤٠٠٠']) {
      const r = await edit(zip);
      expect(r.status, JSON.stringify(zip)).toBe(400);
      expect(r.json).toEqual({ errors: [MSG.postalCodeInvalid] });
    }
    expect((await edit(64000)).status).toBe(400);
    const still = (await h.call('GET', '/user_clients', { token: u.token })).json.response as Account[];
    expect(still.find((a) => a.diverza_client_id === made.diverza_client_id)?.address[0]?.zip_code).toBe('64000');
    const good = await edit('26015');
    expect(good.status).toBe(200);
    expect(good.json.response.address[0].zip_code).toBe('26015');
  });

  it('refuses an edit that would repeat another of the same user RFCs', async () => {
    const u = await h.signUp('upd');
    const one = (await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'ONE010101AB1', name: 'Uno' } } })).json.response;
    await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'TWO010101AB1', name: 'Dos' } } });
    const r = await h.call('PUT', '/update_client', {
      token: u.token,
      body: { client: { diverza_client_id: one.diverza_client_id, rfc: 'TWO010101AB1', name: 'Uno' } },
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ errors: [MSG.rfcTaken] });
  });
});

describe('accounts cache (PGlite)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('pglite');
  });
  afterAll(async () => h?.close());

  it('shows a change made by plain SQL (a job, a later issue) on the very next read', async () => {
    const u = await h.signUp('cache');
    await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc: 'CAC010101AB1', name: 'Antes' } } });
    const first = await h.call('GET', '/user_clients', { token: u.token });
    expect(first.json.response[0].plan_id).toBe(1);
    await h.call('GET', '/user_clients', { token: u.token }); // now served from memory
    await h.database.sql.executeSql('UPDATE clients SET plan_id = 2, ciec = true WHERE user_id = $1', [u.userId]);
    const after = await h.call('GET', '/user_clients', { token: u.token });
    expect(after.json.response[0]).toMatchObject({ plan_id: 2, ciec: true });
    await h.database.sql.executeSql('DELETE FROM clients WHERE user_id = $1', [u.userId]);
    expect((await h.call('GET', '/user_clients', { token: u.token })).json.response).toEqual([]);
  });
});
