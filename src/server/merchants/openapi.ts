// The OpenAPI entries of src/server/merchants's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import { MerchantTicketBody } from '../../domain/merchant-api';
import type { Endpoint } from '../openapi/document';

const FieldDefinition = v.object({
  form_configuration_id: v.pipe(v.number(), v.description('Se envía de vuelta con cada valor')),
  field_name: v.string(),
  form_field_type_id: v.pipe(v.number(), v.description('1 entero ≥ 1, 2 y 6 texto, 4 fecha aaaa/mm/dd, 7 seis bloques de cuatro dígitos, 8 lista, 9 decimal, 11 solo texto')),
  min_length: v.nullable(v.number()),
  helper_image: v.pipe(v.nullable(v.string()), v.description('Ruta de la imagen de ayuda')),
  options: v.array(v.object({ option_id: v.number(), option_title: v.string() })),
});

const VerifiedTicket = v.object({
  ref: v.pipe(v.string(), v.description('Referencia pública del ticket (la del QR)')),
  ticket_number: v.string(),
  venue: v.string(),
  issued_at: v.pipe(v.string(), v.description('ISO 8601')),
  subtotal: v.string(),
  tax: v.string(),
  total: v.string(),
  forma_pago: v.pipe(v.string(), v.description('c_FormaPago')),
  invoiced: v.pipe(v.boolean(), v.description('Ya tiene una factura timbrada')),
  invoice: v.nullable(
    v.object({
      request_id: v.string(),
      status: v.picklist(['solicitada', 'timbrada', 'enviada', 'error', 'sustituida']),
      email_masked: v.string(),
      uuid: v.nullable(v.string()),
    }),
  ),
});

const RegisteredTicket = v.object({
  ref: v.pipe(v.string(), v.description('16 caracteres [A-Z0-9]')),
  check_code: v.pipe(v.string(), v.description('Código impreso en el ticket (el enviado o uno generado)')),
  subtotal: v.string(),
  tax: v.pipe(v.string(), v.description('IVA trasladado, exacto como lo dirá el CFDI')),
  total: v.string(),
  qr: v.pipe(v.string(), v.description('El enlace que se imprime como QR')),
});

export const MERCHANT_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/form/fields.json', summary: 'Campos del formulario de un comercio, en orden', tag: 'Comercios', auth: false,
    response: v.array(FieldDefinition), errors: [404], params: { 'company[id]': '*diverza_client_id del comercio' },
  },
  { method: 'get', path: '/form/data_types.json', summary: 'Tipos de campo de los formularios de comercio', tag: 'Comercios', auth: false, response: v.array(v.object({ id: v.number(), name: v.string() })) },
  {
    method: 'get', path: '/api/v33/tickets/verify',
    summary: 'Buscar un ticket de un comercio por los valores de su formulario o por los datos de su QR (ref, check, total). Límite: 60 consultas por minuto por dirección',
    tag: 'Comercios', auth: false, response: VerifiedTicket, errors: [404, 422, 429],
    params: {
      'company[id]': '*diverza_client_id del comercio',
      'values[<form_configuration_id>]': 'El valor de cada campo (uno por parámetro)',
      flow: '`form` (predeterminado), `merchant`, `anonymous` o `multi`: decide qué campos se piden y el mensaje si no existe',
      ref: 'Referencia del QR (en lugar de values)',
      check: 'Código de verificación del QR',
      total: 'Total del QR, 2 decimales',
    },
  },
  {
    method: 'post', path: '/api/v3/merchants/{short_name}/tickets',
    summary: 'Punto de venta: registrar un ticket (precios con IVA incluido; el servidor calcula subtotal, IVA y total). Requiere el encabezado X-Merchant-Key con la llave del comercio',
    tag: 'Comercios', auth: false, body: MerchantTicketBody, response: RegisteredTicket, status: 201, errors: [401, 409, 422],
    params: { short_name: '*short_name del comercio' },
  },
  {
    method: 'get', path: '/api/v3/rfc/{rfc}', summary: 'Validar un RFC: forma, dígito verificador y lista local de RFC no activos del SAT. Límite: 60 por minuto por dirección',
    tag: 'Comercios', auth: false, response: v.object({ rfc: v.string(), active: v.literal(true) }), errors: [422, 429], params: { rfc: '*RFC' },
  },
  { method: 'get', path: '/dev/merchant-tickets', summary: 'Tickets de demostración de cada comercio con su QR (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html' },
  { method: 'get', path: '/dev/merchant-tickets/{short_name}', summary: 'Los tickets de un comercio con los valores de su formulario y su QR (solo sin SMTP_URL)', tag: 'Documentación', auth: false, contentType: 'text/html', params: { short_name: '*short_name del comercio' } },
];
