// Departments and collaborators over HTTP: every §5 rule in its order with its exact message, what is
// stored (normalised), references that must be the company's, and who may call (manager, collaborator,
// outsider, no plan).
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUND_ACCOUNT_TYPES } from '../../../src/domain/company';
import { MSG } from '../../../src/domain/messages';
import { mailMessages } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { addDepartment, BAD_CLABE, CLABE, collaboratorBody, companyManager, tokenFromText, type Manager } from './helpers';

describe.each(DRIVERS)('company departments and collaborators on %s', (driver) => {
  let h: Harness;
  let m: Manager;
  let area: number;
  beforeAll(async () => {
    h = await createHarness(driver, { publicUrl: 'https://cc.example' });
    m = await companyManager(h);
    area = await addDepartment(h, m, 'ventas');
  });
  afterAll(async () => h?.close());

  const post = (body: unknown, who = m) => h.call('POST', `/api/v3/clients/${who.clientId}/collaborators.json`, { token: who.token, body });

  it('serves the refund account types publicly', async () => {
    const r = await h.call('GET', '/api/v3/refund_account_types.json');
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual(REFUND_ACCOUNT_TYPES);
  });

  it('normalises departments, ignores an empty one and refuses a duplicate with the spec warning', async () => {
    const url = `/api/v3/clients/${m.clientId}/areas.json`;
    const added = await h.call('POST', url, { token: m.token, body: { area: '  RECURSOS   humanos ' } });
    expect(added.status).toBe(200);
    expect(added.json.response.map((a: { area: string }) => a.area)).toContain('Recursos humanos');
    const before = (await h.call('GET', url, { token: m.token })).json.response;
    const empty = await h.call('POST', url, { token: m.token, body: { area: '   ' } });
    expect(empty.status).toBe(200);
    expect(empty.json.response).toEqual(before);
    const dup = await h.call('POST', url, { token: m.token, body: { area: 'recursos HUMANOS' } });
    expect(dup).toMatchObject({ status: 422, json: { errors: [MSG.duplicatesSkipped] } });
    expect((await h.call('GET', url, { token: m.token })).json.response).toEqual(before);
  });

  it('checks a new collaborator in the spec order, each with its exact message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: ' ', first_name: '', last_name: '', area_id: null, corporate_card: '', account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorEmailRequired],
      [{ first_name: '', last_name: '', area_id: null, corporate_card: '', account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorFirstNameRequired],
      [{ last_name: ' ', area_id: null, corporate_card: '', account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorLastNameRequired],
      [{ area_id: null, corporate_card: '', account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorAreaRequired],
      [{ corporate_card: '123', account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorCardRequired],
      [{ account_type_for_refunds_id: null, account_for_refunds: '' }, MSG.collaboratorAccountTypeRequired],
      [{ account_for_refunds: '  ' }, MSG.refundAccountRequired],
      [{ email: 'ana@' }, MSG.emailInvalid],
      [{ corporate_card: '12a4' }, MSG.corporateCardDigits],
      [{ account_for_refunds: BAD_CLABE }, MSG.clabeInvalid],
      [{ account_type_for_refunds_id: 2, account_for_refunds: '4242424242424241' }, MSG.refundCardInvalid],
      [{ account_type_for_refunds_id: 3, account_for_refunds: '12345' }, MSG.refundPhoneInvalid],
      [{ account_type_for_refunds_id: 9 }, MSG.collaboratorAccountTypeRequired],
    ];
    for (const [over, message] of cases) {
      const r = await post(collaboratorBody(area, over));
      expect({ over, status: r.status, errors: r.json.errors }).toEqual({ over, status: 400, errors: [message] });
    }
    expect((await h.call('GET', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token })).json.response).toEqual([]);
  });

  it('refuses a department or an authorizer of another company', async () => {
    const other = await companyManager(h, 4, 'XYZ020202XY2', 'Otra Empresa SA');
    const foreignArea = await addDepartment(h, other, 'compras');
    expect(await post(collaboratorBody(foreignArea))).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorAreaRequired] } });
    const theirs = await post(collaboratorBody(foreignArea, { email: 'beto@example.com' }), other);
    expect(theirs.status).toBe(201);
    const r = await post(collaboratorBody(area, { authorizer_id: theirs.json.response.id }));
    expect(r).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorAuthorizerInvalid] } });
  });

  it('stores the collaborator normalised, invites them by e-mail and refuses the same e-mail again', async () => {
    const r = await post(collaboratorBody(area));
    expect(r.status).toBe(201);
    expect(r.json.response).toMatchObject({
      email: 'ana.lopez@example.com',
      first_name: 'Ana María',
      last_name: 'López',
      area_id: area,
      area: 'Ventas',
      status: 'invitado',
      corporate_card: '1234',
      account_type_for_refunds_id: 1,
      account_for_refunds: '032 180 00011835971 9',
      authorizer_id: null,
      rfc: null,
    });
    const [mail] = await h.database.db.select().from(mailMessages).orderBy(desc(mailMessages.id)).limit(1);
    expect(mail!.to).toBe('ana.lopez@example.com');
    expect(mail!.text).toContain('Bienvenida al equipo de ventas.');
    expect(mail!.text).toContain('Abarrotes del Centro');
    expect(mail!.text).toMatch(/^https:\/\/cc\.example\/#\/join\?token=[A-Za-z0-9_-]{43}$/m);
    expect(tokenFromText(mail!.text)).toHaveLength(43);

    const again = await post(collaboratorBody(area, { email: 'ANA.lopez@example.com', first_name: 'Otra' }));
    expect(again).toMatchObject({ status: 422, json: { errors: [MSG.duplicatesSkipped] } });

    // Type 2 and 3 refund accounts are stored formatted for their type.
    const card = await post(collaboratorBody(area, { email: 'carla@example.com', account_type_for_refunds_id: 2, account_for_refunds: '4242424242424242', authorizer_id: r.json.response.id }));
    expect(card.json.response).toMatchObject({ account_for_refunds: '4242 4242 4242 4242', authorizer_id: r.json.response.id });
    const phone = await post(collaboratorBody(area, { email: 'dario@example.com', account_type_for_refunds_id: 3, account_for_refunds: '+52 55 1234 5678' }));
    expect(phone.json.response.account_for_refunds).toBe('55 1234 5678');
  });

  it('edits with the edit rules and deletes; deleting a department leaves its collaborators without one', async () => {
    const dept = await addDepartment(h, m, 'logística');
    const made = await post(collaboratorBody(dept, { email: 'eva@example.com' }));
    const id = made.json.response.id as number;
    const url = `/api/v3/clients/${m.clientId}/collaborators/${id}.json`;
    expect(await h.call('PUT', url, { token: m.token, body: { invitation: { first_name: ' ' } } })).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorFirstNameRequired] } });
    expect(await h.call('PUT', url, { token: m.token, body: { invitation: { last_name: '' } } })).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorLastNameRequired] } });
    expect(await h.call('PUT', url, { token: m.token, body: { invitation: { area_id: null } } })).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorAreaRequired] } });
    expect(await h.call('PUT', url, { token: m.token, body: { invitation: { account_for_refunds: BAD_CLABE } } })).toMatchObject({ status: 400, json: { errors: [MSG.clabeInvalid] } });
    expect(await h.call('PUT', url, { token: m.token, body: { invitation: { authorizer_id: id } } })).toMatchObject({ status: 400, json: { errors: [MSG.collaboratorAuthorizerInvalid] } });
    const ok = await h.call('PUT', url, { token: m.token, body: { invitation: { first_name: 'EVA  luz', corporate_card: '9876', account_for_refunds: CLABE.replace(/(\d{3})/, '$1 ') } } });
    expect(ok.status).toBe(200);
    expect(ok.json.response).toMatchObject({ first_name: 'Eva Luz', last_name: 'López', corporate_card: '9876', account_for_refunds: '032 180 00011835971 9', email: 'eva@example.com' });

    const gone = await h.call('DELETE', `/api/v3/clients/${m.clientId}/areas/${dept}.json`, { token: m.token });
    expect(gone.status).toBe(200);
    expect(gone.json.response.some((a: { id: number }) => a.id === dept)).toBe(false);
    const list = (await h.call('GET', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token })).json.response;
    expect(list.find((c: { id: number }) => c.id === id)).toMatchObject({ area_id: null, area: null });

    expect((await h.call('DELETE', url, { token: m.token })).status).toBe(200);
    expect((await h.call('DELETE', url, { token: m.token })).status).toBe(404);
    const after = (await h.call('GET', `/api/v3/clients/${m.clientId}/collaborators.json`, { token: m.token })).json.response;
    expect(after.some((c: { id: number }) => c.id === id)).toBe(false);
  });

  it('answers the manager, refuses an active collaborator (403), an outsider (404), no session (401) and no plan (403)', async () => {
    // A collaborator who accepted the invitation with their own RFC.
    // Only the invited address may accept, so the collaborator is invited at their own e-mail.
    const collab = await h.signUp('colab');
    const made = await post(collaboratorBody(area, { email: collab.email }));
    expect(made.status).toBe(201);
    const [mail] = await h.database.db.select().from(mailMessages).orderBy(desc(mailMessages.id)).limit(1);
    const token = tokenFromText(mail!.text);
    await h.call('POST', '/new_client', { token: collab.token, body: { client: { rfc: 'GODE561231GR8', first_name: 'Gil', last_name: 'Díaz' } } });
    expect((await h.call('PUT', `/api/v3/invitations/${token}/accept.json`, { token: collab.token, body: { rfc: 'gode561231gr8' } })).status).toBe(200);
    const outsider = await h.signUp('fuera');
    const locked = await companyManager(h, 1, 'LMN030303LM3', 'Sin Plan SA');

    const id = made.json.response.id as number;
    const base = `/api/v3/clients/${m.clientId}`;
    const endpoints: [string, string, unknown?][] = [
      ['GET', `${base}/areas.json`],
      ['POST', `${base}/areas.json`, { area: 'Nuevo' }],
      ['DELETE', `${base}/areas/${area}.json`],
      ['GET', `${base}/collaborators.json`],
      ['POST', `${base}/collaborators.json`, collaboratorBody(area, { email: 'nuevo@example.com' })],
      ['PUT', `${base}/collaborators/${id}.json`, { invitation: { first_name: 'Gil' } }],
      ['DELETE', `${base}/collaborators/${id}.json`],
    ];
    for (const [method, path, body] of endpoints) {
      expect([method, path, await h.call(method, path, { body })]).toMatchObject([method, path, { status: 401, json: { errors: [MSG.unauthorized] } }]);
      expect([method, path, await h.call(method, path, { token: collab.token, body })]).toMatchObject([method, path, { status: 403, json: { errors: [MSG.forbidden] } }]);
      expect([method, path, await h.call(method, path, { token: outsider.token, body })]).toMatchObject([method, path, { status: 404, json: { errors: [MSG.notFound] } }]);
      const own = path.replace(base, `/api/v3/clients/${locked.clientId}`);
      expect([method, own, await h.call(method, own, { token: locked.token, body })]).toMatchObject([method, own, { status: 403, json: { errors: [MSG.featureLocked] } }]);
    }
    // Nothing changed for the manager; the collaborator is 'activo' with the RFC they chose.
    const list = (await h.call('GET', `${base}/collaborators.json`, { token: m.token })).json.response;
    expect(list.find((c: { id: number }) => c.id === id)).toMatchObject({ status: 'activo', rfc: 'GODE561231GR8', first_name: 'Ana María' });
    expect(list.some((c: { email: string }) => c.email === 'nuevo@example.com')).toBe(false);
  });
});
