// The OpenAPI entries of src/server/rfc-verification's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { Account } from '../openapi/responses';

const Tag = 'Verificación del RFC';
const client = { client_id: '*diverza_client_id de una cuenta fiscal propia' };

export const RFC_VERIFICATION_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/api/v3/clients/{client_id}/rfc_verification/challenge.json', tag: Tag, auth: true, errors: [404], params: client,
    summary: 'Un texto de verificación para firmar con la e.firma (FIEL) del RFC de la cuenta: válido 10 minutos, solo para quien lo pidió y esa cuenta',
    response: v.object({ challenge: v.string(), expires_at: v.pipe(v.string(), v.description('ISO 8601')) }),
  },
  {
    method: 'put', path: '/api/v3/clients/{client_id}/rfc_verification/efirma', tag: Tag, auth: true, files: ['cer', 'challenge', 'signature', 'key', 'password'], errors: [404, 413, 422, 429], params: client,
    summary: 'Verificar el RFC con la e.firma: `cer` y, o bien `challenge` con `signature` (base64 de la firma SHA-256 con RSA del texto), o bien `key` y `password` (se usan solo en memoria para firmar aquí; nunca se guardan). 422 si no es una e.firma vigente del RFC de la cuenta, si la firma no corresponde o si el texto caducó; 10 intentos por usuario cada 15 minutos. Responde la cuenta con rfc_verified=true',
    response: Account,
  },
];
