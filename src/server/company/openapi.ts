// The OpenAPI entries of src/server/company's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { Session } from '../openapi/responses';
import { AcceptInvitationBody, AreaBody, EditCollaboratorBody, NewCollaboratorBody, SignUpInvitationBody } from './schemas';

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

export const COMPANY_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/api/v3/refund_account_types.json', tag: Tag, auth: false,
    summary: 'Tipos de cuenta para reembolso: 1 CLABE interbancaria, 2 número de tarjeta, 3 número de celular',
    response: v.array(v.object({ id: v.number(), account_type: v.string() })),
  },
  {
    method: 'get', path: '/api/v3/clients/{client_id}/areas.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Departamentos de la empresa. ${manager}`, response: v.array(Area),
  },
  {
    method: 'post', path: '/api/v3/clients/{client_id}/areas.json', tag: Tag, auth: true, params: client, body: AreaBody, errors: [403, 404, 422],
    summary: `Agregar un departamento (recortado, en minúsculas y con mayúscula inicial; vacío se ignora; repetido: 422 'Se han omitido registros duplicados.'). Responde la lista. ${manager}`,
    response: v.array(Area),
  },
  {
    method: 'delete', path: '/api/v3/clients/{client_id}/areas/{area_id}.json', tag: Tag, auth: true, params: { ...client, area_id: '*id del departamento' }, errors: [403, 404],
    summary: `Borrar un departamento; sus colaboradores quedan sin departamento. Responde la lista. ${manager}`, response: v.array(Area),
  },
  {
    method: 'get', path: '/api/v3/clients/{client_id}/collaborators.json', tag: Tag, auth: true, params: client, errors: [403, 404],
    summary: `Colaboradores de la empresa. ${manager}`, response: v.array(Collaborator),
  },
  {
    method: 'post', path: '/api/v3/clients/{client_id}/collaborators.json', tag: Tag, auth: true, params: client, body: NewCollaboratorBody, status: 201, errors: [403, 404, 422, 502],
    summary: `Invitar a un colaborador: las reglas del §5 en su orden (400 con su mensaje), correo repetido en la empresa 422 'Se han omitido registros duplicados.'; envía el correo con email_text y un enlace #/join?token=… de un solo uso que vence en 14 días. ${manager}`,
    response: Collaborator,
  },
  {
    method: 'put', path: '/api/v3/clients/{client_id}/collaborators/{id}.json', tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, body: EditCollaboratorBody, errors: [403, 404, 502],
    summary: `Editar un colaborador (nombre, apellido y departamento requeridos); resend: true reenvía la invitación a quien sigue 'invitado'. ${manager}`,
    response: Collaborator,
  },
  {
    method: 'delete', path: '/api/v3/clients/{client_id}/collaborators/{id}.json', tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, errors: [403, 404],
    summary: `Quitar a un colaborador (la empresa deja de ver su RFC). ${manager}`, response: v.object({ ok: v.boolean() }),
  },
  {
    method: 'get', path: '/api/v3/clients/{client_id}/collaborators/{id}/profile.json', tag: Tag, auth: true, params: { ...client, id: '*id del colaborador' }, errors: [403, 404],
    summary: `Perfil y datos fiscales del RFC con el que un colaborador activo aceptó la invitación (como el perfil OAuth; nunca contraseñas ni sus otros RFC). Invitado o inactivo: 404. Sus facturas recibidas se descargan con /receipt_pdf y /receipt_xml. ${manager}`,
    response: CollaboratorProfile,
  },
  {
    method: 'get', path: '/api/v3/invitations/{token}.json', tag: Tag, auth: false, params: token, errors: [404],
    summary: 'La invitación de un enlace (sin sesión): correo, si ya está registrado y los datos de la empresa. Token inválido, usado o vencido: 404 con el mensaje del §8',
    response: Invitation,
  },
  {
    method: 'put', path: '/api/v3/invitations/{token}/accept.json', tag: Tag, auth: true, params: token, body: AcceptInvitationBody, errors: [404],
    summary: 'Aceptar la invitación con uno de los RFC propios: el colaborador queda activo y la empresa puede ver el perfil, los datos fiscales y las facturas recibidas de ese RFC (nunca contraseñas). El enlace deja de servir',
    response: v.object({ collaborator_id: v.number(), client_id: v.number() }),
  },
  {
    method: 'put', path: '/api/v3/invitations/{token}/sign_up.json', tag: Tag, auth: false, params: token, body: SignUpInvitationBody, errors: [404, 422],
    summary: 'Registrarse desde la invitación (el correo es el invitado; sin captcha: el token de un solo uso lo sustituye): crea el usuario y la cuenta fiscal, acepta y responde la sesión',
    response: Session,
  },
];
