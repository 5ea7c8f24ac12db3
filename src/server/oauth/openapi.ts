// The OpenAPI entries of src/server/oauth's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { AccessTokenBody, AuthorizeBody, RequestTokenBody } from './routes';

const Str = v.string();
const AppView = v.object({ name: Str, description: Str, icon: Str, website: Str, callback_url: Str });
const Address = v.object({
  street: Str, external_number: Str, internal_number: Str, neighborhood: Str, city: Str, state: Str, country: Str, zip_code: Str,
});
const Profile = v.object({
  user: v.object({ username: Str, email: Str }),
  account: v.object({
    rfc: Str,
    name: v.nullable(Str),
    first_name: v.nullable(Str),
    last_name: v.nullable(Str),
    regimen_fiscal: Str,
    address: v.array(Address),
    residencia_fiscal: v.nullable(Str),
    num_reg_id_trib: v.nullable(Str),
  }),
});
const Grant = v.object({ id: v.number(), application: v.object({ name: Str, icon: Str, website: Str }), rfc: Str, created_at: Str });
const TAG = 'OAuth';

export const OAUTH_ENDPOINTS: Endpoint[] = [
  {
    method: 'post', path: '/oauth/request_token.json', tag: TAG, auth: false, body: RequestTokenBody, errors: [429],
    summary: 'La aplicación (de servidor a servidor, con client_id y client_secret) pide un oauth_token de un solo uso que vence en 10 minutos. callback_url debe ser exactamente la registrada (400 si no); 401 con credenciales incorrectas. 30 por IP por minuto',
    response: v.object({ oauth_token: Str }),
  },
  {
    method: 'get', path: '/oauth/authorize.json', tag: TAG, auth: false, errors: [404],
    params: { oauth_token: '*El oauth_token del paso anterior' },
    summary: 'Lo que muestra la pantalla de autorización: nombre, descripción, ícono, sitio y URL de retorno de la aplicación. 404 con el mensaje de token no válido si no existe, ya se usó o venció',
    response: AppView,
  },
  {
    method: 'post', path: '/oauth/authorize.json', tag: TAG, auth: true, body: AuthorizeBody, errors: [404],
    summary: 'El usuario con sesión autoriza a la aplicación a leer su perfil y los datos fiscales de uno de sus RFC (404 si el RFC no es suyo o el token no es válido). Responde la URL de retorno con oauth_token y oauth_verifier',
    response: v.object({ redirect_url: Str }),
  },
  {
    method: 'post', path: '/oauth/access_token.json', tag: TAG, auth: false, body: AccessTokenBody, errors: [429],
    summary: 'La aplicación cambia oauth_token y oauth_verifier (un solo uso: repetirlo da 400) por un access_token de solo lectura, limitado a ese usuario y RFC y revocable por el usuario. 401 con credenciales incorrectas. 30 por IP por minuto',
    response: v.object({ access_token: Str }),
  },
  {
    method: 'get', path: '/api/v3/oauth/profile.json', tag: TAG, auth: false,
    summary: 'Con `Authorization: Bearer <access_token>`: el perfil (usuario y correo) y los datos fiscales del RFC autorizado; nunca comprobantes ni contraseñas. 401 si el token no existe o fue revocado. Ese token en cualquier otro endpoint recibe 403',
    response: Profile,
  },
  {
    method: 'get', path: '/api/v3/users/{id}/oauth_grants.json', tag: TAG, auth: true, errors: [404],
    params: { id: '*user_id propio' },
    summary: 'Las aplicaciones conectadas del usuario (autorizaciones vigentes), la más reciente primero',
    response: v.array(Grant),
  },
  {
    method: 'delete', path: '/api/v3/users/{id}/oauth_grants/{grant_id}.json', tag: TAG, auth: true, errors: [404],
    params: { id: '*user_id propio', grant_id: '*id de la autorización' },
    summary: 'Revocar una autorización propia: su access_token deja de servir de inmediato',
    response: v.object({ id: v.number(), revoked: v.boolean() }),
  },
];
