// The OpenAPI entries of src/server/plans' routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import type { Endpoint } from '../openapi/document';
import { PaymentHistoryItem } from '../openapi/responses';
import { SubscribeBody, TokenBody } from './routes';

const Card = v.object({ brand: v.string(), last4: v.string(), exp_month: v.number(), exp_year: v.number() });

export const PLANS_ENDPOINTS: Endpoint[] = [
  {
    method: 'post', path: '/api/v3/payments/sandbox/tokens', tag: 'Planes y pagos', auth: false, body: TokenBody, errors: [429],
    summary: 'Tokenizar una tarjeta de prueba con el proveedor sandbox (solo sin STRIPE_SECRET_KEY): 4242… se cobra, 4000 0000 0000 0002 se rechaza, 4000 0000 0000 9995 no tiene fondos. Responde un token; el número nunca se guarda. 20 por IP cada 10 minutos',
    response: v.object({ id: v.string(), card: Card }),
  },
  {
    method: 'post', path: '/api/v3/subscriptions.json', tag: 'Planes y pagos', auth: true, body: SubscribeBody, errors: [402, 404, 422],
    summary: 'Contratar un plan para una cuenta propia con el token de la tarjeta: cobra precio × meses × 1.16 (empresariales: más 89 por colaborador activo), guarda el intento en el historial y, si se cobró, activa el plan. 402 con el mensaje de cargo fallido',
    response: v.object({ subscription: v.object({ client_id: v.number(), plan_id: v.number(), payment_id: v.string(), active_until: v.string() }) }),
  },
  {
    method: 'get', path: '/api/v3/subscriptions/{client}/payments.json', tag: 'Planes y pagos', auth: true, errors: [404],
    params: { client: '*diverza_client_id de una cuenta propia' },
    summary: 'Historial de pagos de una cuenta propia (también en payment_history de /user_clients), el más reciente primero',
    response: v.array(PaymentHistoryItem),
  },
];
