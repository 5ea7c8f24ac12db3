// The OpenAPI entries of src/server/sat-sync's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { Account } from '../openapi/responses';
import { AuthenticateSatSchema, SaveSatPasswordSchema } from './routes';

const Tag = 'Sincronización SAT';
const branch = { id: '*user_id del usuario que llama', rfc: '*RFC de una cuenta fiscal propia (persona física)' };
const SyncStatus = v.object({
  rfc: v.string(),
  method: v.nullable(v.picklist(['ciec', 'efirma'])),
  methods: v.array(v.picklist(['ciec', 'efirma'])),
  efirma: v.nullable(v.object({ serial: v.string(), valid_until: v.string() })),
  synchronized_at: v.nullable(v.string()),
  last_imported: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  running: v.boolean(),
});

export const SAT_SYNC_ENDPOINTS: Endpoint[] = [
  {
    method: 'post', path: '/api/v1/AuthenticateSATPortal', tag: Tag, auth: true, body: AuthenticateSatSchema, errors: [404, 422, 429],
    summary: 'Comprobar la contraseña del SAT (CIEC) de un RFC propio con el portal del SAT configurado. 400 si no es válida; 422 si el portal solo acepta e.firma; 10 intentos por usuario cada 15 minutos',
    response: v.object({ valid: v.literal(true) }),
  },
  {
    method: 'put', path: '/api/v3/users/{id}/branches/{rfc}.json', tag: Tag, auth: true, body: SaveSatPasswordSchema, errors: [403, 404, 422, 429], params: branch,
    summary: 'Guardar la contraseña del SAT (cifrada; nunca se devuelve): se comprueba con el portal (400 si no es válida), la cuenta queda con ciec=true y se descargan de inmediato los comprobantes de los días anteriores. Requiere SincronizacionSAT (403); solo personas físicas (422)',
    response: Account,
  },
  {
    method: 'put', path: '/api/v3/users/{id}/branches/{rfc}/efirma', tag: Tag, auth: true, files: ['cer', 'key', 'password'], errors: [403, 404, 422, 429], params: branch,
    summary: 'Conectar con la e.firma (método oficial de Descarga Masiva): partes `cer`, `key` (hasta 64 KB) y `password`. 422 si no abre, es un CSD, es de otro RFC o está vencida. Responde la cuenta',
    response: Account,
  },
  {
    method: 'delete', path: '/api/v3/users/{id}/branches/{rfc}.json', tag: Tag, auth: true, errors: [403, 404, 422], params: branch,
    summary: 'Desconectar del SAT: borra la contraseña y la e.firma guardadas, ciec=false. Responde la cuenta',
    response: Account,
  },
  {
    method: 'get', path: '/api/v3/users/{id}/branches/{rfc}/sync', tag: Tag, auth: true, errors: [403, 404, 422], params: branch,
    summary: 'Estado de la sincronización: método conectado, métodos que acepta el servidor, e.firma (serie y vigencia), última sincronización, comprobantes importados, último error y si hay una en curso',
    response: SyncStatus,
  },
  { method: 'get', path: '/dev/sat-portal', summary: 'Portal del SAT simulado: sus cuentas y un formulario para abrir una (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' },
  { method: 'post', path: '/dev/sat-portal', summary: 'Abrir una cuenta del portal del SAT simulado con un RFC y una CIEC (formulario; solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' },
];
