// The OpenAPI 3.1 document of the API, generated from the same valibot schemas the server validates with.
// The endpoints are the routes' own definitions (http/route.ts), gathered by the composition root.
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { APP_VERSION } from '../../domain/http';
import type { Endpoint } from '../http/route';

export type { Endpoint };

const jsonSchema = (s: v.GenericSchema) =>
  toJsonSchema(s, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' }) as Record<string, unknown>;

const errorsRef = { $ref: '#/components/schemas/Errors' };

function operation(e: Endpoint) {
  const responses: Record<string, unknown> = {};
  const ok = e.response
    ? { content: { 'application/json': { schema: { type: 'object', required: ['response'], properties: { response: jsonSchema(e.response) } } } } }
    : { content: { [e.contentType ?? 'application/json']: {} } };
  responses[String(e.status ?? 200)] = e.status === 204 ? { description: 'Éxito, sin contenido' } : { description: 'Éxito', ...ok };
  const input = Boolean(e.body || e.files);
  const failures = new Set([...(input ? [400] : []), ...(e.auth ? [401] : []), ...(e.errors ?? []), 500]);
  if (input) failures.add(413);
  if (input && e.method !== 'get') failures.add(409);
  const parameters: unknown[] = Object.entries(e.params ?? {}).map(([name, text]) => ({
    name,
    in: e.path.includes(`{${name}}`) ? 'path' : 'query',
    required: text.startsWith('*'),
    description: text.replace(/^\*/, ''),
    schema: { type: 'string' },
  }));
  if (e.method !== 'get') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const code of [...failures].sort()) {
    responses[String(code)] = { description: 'Error', content: { 'application/json': { schema: errorsRef } } };
  }
  return {
    summary: e.summary,
    tags: [e.tag],
    ...(e.auth ? { security: [{ accessToken: [] }, { tokenHeader: [] }, { accessTokenQuery: [] }] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(e.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(e.body) } } } } : {}),
    ...(e.files
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', required: e.files, properties: Object.fromEntries(e.files.map((f) => [f, { type: 'string', format: 'binary' }])) },
              },
            },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of endpoints) (paths[e.path] ??= {})[e.method] = operation(e);
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
