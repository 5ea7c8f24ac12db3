// The OpenAPI 3.1 document of the API, generated from the same valibot schemas the server validates with.
import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { CreateUserBody, LoginBody, PasswordResetConfirmBody, PasswordResetRequestBody } from '../../domain/auth-schemas';
import { EditClientBody, NewClientBody } from '../../domain/client-schemas';
import { APP_VERSION } from '../../domain/http';
import * as R from './responses';

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  body?: v.GenericSchema;
  response?: v.GenericSchema;
  /** Documented failures besides 400/401/500. */
  errors?: number[];
  /** The success status when it is not 200. */
  status?: number;
  contentType?: string;
}

export const ENDPOINTS: Endpoint[] = [
  { method: 'get', path: '/api/v2/captcha', summary: 'Reto ALTCHA (prueba de trabajo SHA-256) para el registro', tag: 'Cuenta', auth: false, response: R.Challenge },
  { method: 'post', path: '/api/v2/create_user', summary: 'Crear usuario (con la solución ALTCHA en base64 en `captcha`)', tag: 'Cuenta', auth: false, body: CreateUserBody, response: R.NewUser, errors: [422] },
  { method: 'post', path: '/api/v2/login', summary: 'Iniciar sesión con usuario o correo', tag: 'Cuenta', auth: false, body: LoginBody, response: R.Session, errors: [429] },
  { method: 'post', path: '/api/v2/logout', summary: 'Cerrar sesión (revoca el token)', tag: 'Cuenta', auth: true, response: R.Ok },
  { method: 'post', path: '/api/v2/password_reset', summary: 'Pedir un enlace para restablecer la contraseña', tag: 'Cuenta', auth: false, body: PasswordResetRequestBody, response: R.Message },
  { method: 'post', path: '/api/v2/password_reset/confirm', summary: 'Elegir una nueva contraseña con el token del enlace', tag: 'Cuenta', auth: false, body: PasswordResetConfirmBody, response: R.Message },
  { method: 'get', path: '/user_clients', summary: 'Cuentas fiscales (RFC) del usuario', tag: 'Cuentas fiscales', auth: true, response: v.array(R.Account) },
  { method: 'post', path: '/new_client', summary: 'Agregar una cuenta fiscal', tag: 'Cuentas fiscales', auth: true, body: NewClientBody, response: R.Account, errors: [422] },
  { method: 'put', path: '/update_client', summary: 'Editar los datos de facturación de una cuenta fiscal propia', tag: 'Cuentas fiscales', auth: true, body: EditClientBody, response: R.Account, errors: [404, 422] },
  { method: 'get', path: '/meta_tags.json', summary: 'Categorías de gasto', tag: 'Catálogos', auth: false, response: v.array(R.MetaTag) },
  { method: 'get', path: '/income_meta_tags.json', summary: 'Categorías de ingreso', tag: 'Catálogos', auth: false, response: v.array(R.IncomeMetaTag) },
  { method: 'get', path: '/api/v3/plans.json', summary: 'Planes', tag: 'Catálogos', auth: false, response: v.array(R.Plan) },
  { method: 'get', path: '/api/openapi.json', summary: 'Este documento', tag: 'Documentación', auth: false, contentType: 'application/json' },
  { method: 'get', path: '/api/docs', summary: 'Este documento en HTML', tag: 'Documentación', auth: false, contentType: 'text/html' },
  { method: 'get', path: '/dev/mailbox', summary: 'Buzón de desarrollo (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' },
];

const jsonSchema = (s: v.GenericSchema) =>
  toJsonSchema(s, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' }) as Record<string, unknown>;

const errorsRef = { $ref: '#/components/schemas/Errors' };

function operation(e: Endpoint) {
  const responses: Record<string, unknown> = {};
  const ok = e.response
    ? { content: { 'application/json': { schema: { type: 'object', required: ['response'], properties: { response: jsonSchema(e.response) } } } } }
    : { content: { [e.contentType ?? 'application/json']: {} } };
  responses[String(e.status ?? 200)] = { description: 'Éxito', ...ok };
  const failures = new Set([...(e.body ? [400] : []), ...(e.auth ? [401] : []), ...(e.errors ?? []), 500]);
  if (e.body) failures.add(413);
  if (e.body && e.method !== 'get') failures.add(409);
  for (const code of [...failures].sort()) {
    responses[String(code)] = { description: 'Error', content: { 'application/json': { schema: errorsRef } } };
  }
  return {
    summary: e.summary,
    tags: [e.tag],
    ...(e.auth ? { security: [{ accessToken: [] }, { tokenHeader: [] }, { accessTokenQuery: [] }] } : {}),
    ...(e.method !== 'get' ? { parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }] } : {}),
    ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(e.body) } } } } : {}),
    responses,
  };
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) (paths[e.path] ??= {})[e.method] = operation(e);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Cuentas Claras API',
      version: APP_VERSION,
      description:
        'Respuestas exitosas: `{"response": …}`. Errores: `{"errors": ["mensaje en español"]}` con estado 4xx, o 500 con el mensaje genérico. ' +
        'El token de sesión viaja en `X-Access-Token` (también: encabezado `token`, `access_token` en la consulta, o `user.token` / `usuario.token` en el cuerpo JSON). ' +
        'Las consultas GET usan parámetros con corchetes (`usuario[rfc_owner]=…`).',
    },
    paths,
    components: {
      schemas: {
        Errors: { type: 'object', required: ['errors'], properties: { errors: { type: 'array', items: { type: 'string' } } } },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Repetir con la misma clave devuelve la respuesta guardada (30 días). Otra carga: 422; aún en curso: 409.',
          schema: { type: 'string', maxLength: 255 },
        },
      },
      securitySchemes: {
        accessToken: { type: 'apiKey', in: 'header', name: 'X-Access-Token' },
        tokenHeader: { type: 'apiKey', in: 'header', name: 'token' },
        accessTokenQuery: { type: 'apiKey', in: 'query', name: 'access_token' },
      },
    },
  };
}
