// The company HTTP surface: departments, collaborators and invitations of a company
// tax account, the refund account types, and joining by invitation. Every /clients/{client_id}/… route is
// the manager's only (http/company-access.ts: outsider 404, collaborator 403, no plan 403 MSG.featureLocked).
import { Hono, type Context } from 'hono';
import { REFUND_ACCOUNT_TYPES } from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { markSecretResponse } from '../http/idempotency';
import { fail } from '../http/errors';
import { requireRfcVerified } from '../http/own-account';
import { managedCompany, type Company } from '../http/company-access';
import { addArea, deleteArea, listAreas } from './areas';
import { deleteCollaborator, inviteCollaborator, listCollaborators, resendInvitation, updateCollaborator, type InviteContext } from './collaborators';
import { collaboratorProfile } from './host-access';
import { acceptInvitation, showInvitation, signUpWithInvitation, type AccountSignUp } from './invitations';
import { AcceptInvitationBody, AreaBody, EditCollaboratorBody, NewCollaboratorBody, SignUpInvitationBody } from './schemas';
import * as v from 'valibot';
import { Session } from '../openapi/responses';
import { defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const Tag = 'Empresa';
const client = { client_id: '*diverza_client_id de la cuenta de empresa (RFC de 12 caracteres) del usuario' };
const manager = 'Solo el dueño de la cuenta de empresa con plan Colaboradores (4 o 5): 404 si la cuenta no es suya, 403 a sus colaboradores y sin el plan';
const Area = v.object({ id: v.number(), area: v.string() });
const Collaborator = v.object({
  id: v.number(),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  area: v.nullable(v.string()),
  area_id: v.nullable(v.number()),
  status: v.picklist(['invitado', 'activo', 'inactivo']),
  corporate_card: v.string(),
  account_type_for_refunds_id: v.nullable(v.number()),
  account_for_refunds: v.string(),
  authorizer_id: v.nullable(v.number()),
  rfc: v.nullable(v.string()),
});
const Address = v.object({
  street: v.string(), external_number: v.string(), internal_number: v.string(), neighborhood: v.string(),
  city: v.string(), state: v.string(), country: v.string(), zip_code: v.string(),
});
const Invitation = v.object({
  email: v.string(),
  registered: v.boolean(),
  company_name: v.string(),
  host: v.object({ first_name: v.nullable(v.string()), last_name: v.nullable(v.string()), rfc: v.string(), name: v.nullable(v.string()), address: Address }),
});
const token = { token: '*el token del enlace de invitación' };
/** Same shape as the OAuth profile (domain/oauth.ts OAuthProfile). */
const CollaboratorProfile = v.object({
  user: v.object({ username: v.string(), email: v.string() }),
  account: v.object({
    rfc: v.string(),
    name: v.nullable(v.string()),
    first_name: v.nullable(v.string()),
    last_name: v.nullable(v.string()),
    regimen_fiscal: v.string(),
    address: v.array(Address),
    residencia_fiscal: v.nullable(v.string()),
    num_reg_id_trib: v.nullable(v.string()),
  }),
});

/** '12.json' → 12; anything else → NaN (then 404). */
const idOfFile = (file: string | undefined) => (file && /^\d{1,10}\.json$/.test(file) ? Number(file.slice(0, -5)) : NaN);
const idOf = (raw: string | undefined) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN);

export function companyRoutes(s: Services, accounts: AccountSignUp): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  const company = (c: Context<AppEnv>): Promise<Company> => managedCompany(s.db, caller(c).userId, idOf(c.req.param('client_id')));
  const inviting = (): InviteContext => ({
    db: s.db,
    mailer: s.mailer,
    now: s.clock(),
    publicUrl: s.config.publicUrl,
  });
  const companyName = (co: Company, given: string) => given.trim() || co.name || co.rfc;

  defineRoute(app, {
    method: 'get', path: '/api/v3/refund_account_types.json', tag: Tag, auth: false,
    summary: 'Tipos de cuenta para reembolso: 1 CLABE interbancaria, 2 número de tarjeta, 3 número de celular',
    response: v.array(v.object({ id: v.number(), account_type: v.string() })),
  }, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, REFUND_ACCOUNT_TYPES);
  });

  // ── departments ──
  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/areas.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Departamentos de la empresa. ${manager}`, response: v.array(Area),
  }, auth, async (c) => ok(c, await listAreas(s.db, (await company(c)).id)));

  defineRoute(app, {
    method: 'post', path: '/api/v3/clients/{client_id}/areas.json', tag: Tag, auth: true, params: client, body: AreaBody, errors: [403, 404, 422],
    summary: `Agregar un departamento (recortado, en minúsculas y con mayúscula inicial; vacío se ignora; repetido: 422 'Se han omitido registros duplicados.'). Responde la lista. ${manager}`,
    response: v.array(Area), guard: company,
  }, auth, async (c, { body, guard: co }) => {
    return ok(c, await addArea(s.db, co.id, body.area));
  });

  defineRoute(app, {
    method: 'delete', path: '/api/v3/clients/{client_id}/areas/{area_id}.json', names: { area_id: 'file' }, tag: Tag, auth: true, params: { ...client, area_id: '*id del departamento' }, errors: [403, 404],
    summary: `Borrar un departamento; sus colaboradores quedan sin departamento. Responde la lista. ${manager}`, response: v.array(Area),
  }, auth, async (c) => {
    const co = await company(c);
    const id = idOfFile(pathParam(c, 'file'));
    if (Number.isNaN(id)) throw fail(404, MSG.notFound);
    return ok(c, await deleteArea(s.db, co.id, id));
  });

  // ── collaborators ──
  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/collaborators.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Colaboradores de la empresa. ${manager}`, response: v.array(Collaborator),
  }, auth, async (c) => ok(c, await listCollaborators(s.db, (await company(c)).id)));

  defineRoute(app, {
    method: 'post', path: '/api/v3/clients/{client_id}/collaborators.json', tag: Tag, auth: true, params: client, body: NewCollaboratorBody, status: 201, errors: [403, 404, 422, 502],
    summary: `Invitar a un colaborador: las reglas del §5 en su orden (400 con su mensaje), correo repetido en la empresa 422 'Se han omitido registros duplicados.'; envía el correo con email_text y un enlace #/join?token=… de un solo uso que vence en 14 días. ${manager}`,
    response: Collaborator,
    guard: async (c) => {
      const co = await company(c);
      // Invitations collect CLABEs in the company's name: only an account that proved its RFC sends them.
      await requireRfcVerified(s.db, co.id, MSG.rfcNotVerifiedInvite);
      return co;
    },
  }, auth, async (c, { body, guard: co }) => {
    const made = await inviteCollaborator(inviting(), co, body.invitation, companyName(co, body.company_name), body.email_text);
    return ok(c, made, 201);
  });

  defineRoute(app, {
    method: 'put', path: '/api/v3/clients/{client_id}/collaborators/{id}.json', names: { id: 'file' }, tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, body: EditCollaboratorBody, errors: [403, 404, 502],
    summary: `Editar un colaborador (nombre, apellido y departamento requeridos); resend: true reenvía la invitación a quien sigue 'invitado'. ${manager}`,
    response: Collaborator,
    guard: async (c) => {
      const co = await company(c);
      const id = idOfFile(pathParam(c, 'file'));
      if (Number.isNaN(id)) throw fail(404, MSG.notFound);
      return { co, id };
    },
  }, auth, async (c, { body, guard: { co, id } }) => {
    if (body.resend) await requireRfcVerified(s.db, co.id, MSG.rfcNotVerifiedInvite);
    const edit = Object.fromEntries(Object.entries(body.invitation).filter(([, val]) => val !== undefined));
    const updated = await updateCollaborator(s.db, co, id, edit, s.clock());
    if (body.resend) await resendInvitation(inviting(), co, id, companyName(co, body.company_name), body.email_text);
    return ok(c, updated);
  });

  defineRoute(app, {
    method: 'delete', path: '/api/v3/clients/{client_id}/collaborators/{id}.json', names: { id: 'file' }, tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, errors: [403, 404],
    summary: `Quitar a un colaborador (la empresa deja de ver su RFC). ${manager}`, response: v.object({ ok: v.boolean() }),
  }, auth, async (c) => {
    const co = await company(c);
    const id = idOfFile(pathParam(c, 'file'));
    if (Number.isNaN(id)) throw fail(404, MSG.notFound);
    await deleteCollaborator(s.db, co, id);
    return ok(c, { ok: true });
  });

  // What the company may read of an active collaborator (spec §6): profile and the accepted RFC's tax data.
  defineRoute(app, {
    method: 'get', path: '/api/v3/clients/{client_id}/collaborators/{id}/profile.json', tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, errors: [403, 404],
    summary: `Perfil y datos fiscales del RFC con el que un colaborador activo aceptó la invitación (como el perfil OAuth; nunca contraseñas ni sus otros RFC). Invitado o inactivo: 404. Sus facturas recibidas se descargan con /receipt_pdf y /receipt_xml. ${manager}`,
    response: CollaboratorProfile,
  }, auth, async (c) => {
    const co = await company(c);
    return ok(c, await collaboratorProfile(s.db, co.id, idOf(c.req.param('id'))));
  });

  // ── invitations ──
  defineRoute(app, {
    method: 'get', path: '/api/v3/invitations/{token}.json', names: { token: 'file' }, tag: Tag, auth: false, params: token, errors: [404],
    summary: 'La invitación de un enlace (sin sesión): correo, si ya está registrado y los datos de la empresa. Token inválido, usado o vencido: 404 con el mensaje del §8',
    response: Invitation,
  }, async (c) => {
    const token = pathParam(c, 'file').slice(0, -5);
    return ok(c, await showInvitation(s.db, token, s.clock()));
  });

  defineRoute(app, {
    method: 'put', path: '/api/v3/invitations/{token}/accept.json', tag: Tag, auth: true, params: token, body: AcceptInvitationBody, errors: [404],
    summary: 'Aceptar la invitación con uno de los RFC propios: el colaborador queda activo y la empresa puede ver el perfil, los datos fiscales y las facturas recibidas de ese RFC (nunca contraseñas). El enlace deja de servir',
    response: v.object({ collaborator_id: v.number(), client_id: v.number() }),
  }, auth, async (c, { body }) => {
    return ok(c, await acceptInvitation(s.db, pathParam(c, 'token'), caller(c).userId, body.rfc, s.clock()));
  });

  defineRoute(app, {
    method: 'put', path: '/api/v3/invitations/{token}/sign_up.json', tag: Tag, auth: false, params: token, body: SignUpInvitationBody, errors: [404, 422],
    summary: 'Registrarse desde la invitación (el correo es el invitado; sin captcha: el token de un solo uso lo sustituye): crea el usuario y la cuenta fiscal, acepta y responde la sesión',
    response: Session,
  }, async (c, { body }) => {
    const session = await signUpWithInvitation(s.db, accounts, pathParam(c, 'token'), body, s.clock());
    markSecretResponse(c);
    return ok(c, session);
  });

  return app;
}
