// Every endpoint of the API for the OpenAPI document: the core ones here and each area's own list.
import * as v from 'valibot';
import { CreateUserBody, LoginBody, PasswordResetConfirmBody, PasswordResetRequestBody } from '../domain/auth-schemas';
import { EditClientBody, NewClientBody } from '../domain/client-schemas';
import { ShareReceiptsBody } from '../domain/receipt-share';
import { FileLinkBody } from '../domain/file-links';
import { RemoveTicketsBody, UpdateTicketBody } from '../domain/ticket-schemas';
import type { Endpoint } from './openapi/document';
import * as R from './openapi/responses';
import { ManualRateBody } from './rates/routes';
import { INVOICING_ENDPOINTS } from './invoicing/openapi';
import { MERCHANT_ENDPOINTS } from './merchants/openapi';
import { CHAT_ENDPOINTS } from './chat/openapi';
import { COMPANY_ENDPOINTS } from './company/openapi';
import { PER_DIEM_ENDPOINTS } from './per-diem/openapi';
import { COMPANY_VIEW_ENDPOINTS } from './company-view/openapi';
import { PLANS_ENDPOINTS } from './plans/openapi';
import { OAUTH_ENDPOINTS } from './oauth/openapi';
import { SAT_SYNC_ENDPOINTS } from './sat-sync/openapi';
import { RFC_VERIFICATION_ENDPOINTS } from './rfc-verification/openapi';
import { TICKET_VIEW_ENDPOINTS } from './ticket-view/openapi';

const CORE_ENDPOINTS: Endpoint[] = [
  { method: 'get', path: '/api/v2/captcha', summary: 'Reto ALTCHA (prueba de trabajo SHA-256) para el registro', tag: 'Cuenta', auth: false, response: R.Challenge },
  { method: 'post', path: '/api/v2/create_user', summary: 'Crear usuario (con la solución ALTCHA en base64 en `captcha`)', tag: 'Cuenta', auth: false, body: CreateUserBody, response: R.NewUser, errors: [422] },
  { method: 'post', path: '/api/v2/login', summary: 'Iniciar sesión con usuario o correo', tag: 'Cuenta', auth: false, body: LoginBody, response: R.LoginSession, errors: [429] },
  { method: 'post', path: '/api/v2/logout', summary: 'Cerrar sesión (revoca el token)', tag: 'Cuenta', auth: true, response: R.Ok },
  { method: 'post', path: '/api/v2/password_reset', summary: 'Pedir un enlace para restablecer la contraseña (hasta 3 correos por hora por cuenta; 10 solicitudes por hora por dirección, luego 429)', tag: 'Cuenta', auth: false, body: PasswordResetRequestBody, response: R.Message, errors: [429] },
  { method: 'post', path: '/api/v2/password_reset/confirm', summary: 'Elegir una nueva contraseña con el token del enlace', tag: 'Cuenta', auth: false, body: PasswordResetConfirmBody, response: R.Message },
  { method: 'get', path: '/user_clients', summary: 'Cuentas fiscales (RFC) del usuario', tag: 'Cuentas fiscales', auth: true, response: v.array(R.Account) },
  { method: 'post', path: '/new_client', summary: 'Agregar una cuenta fiscal', tag: 'Cuentas fiscales', auth: true, body: NewClientBody, response: R.Account, errors: [422] },
  { method: 'put', path: '/update_client', summary: 'Editar los datos de facturación de una cuenta fiscal propia', tag: 'Cuentas fiscales', auth: true, body: EditClientBody, response: R.Account, errors: [404, 422] },
  { method: 'get', path: '/meta_tags.json', summary: 'Categorías de gasto', tag: 'Catálogos', auth: false, response: v.array(R.MetaTag) },
  { method: 'get', path: '/income_meta_tags.json', summary: 'Categorías de ingreso', tag: 'Catálogos', auth: false, response: v.array(R.IncomeMetaTag) },
  { method: 'get', path: '/api/v3/plans.json', summary: 'Planes', tag: 'Catálogos', auth: false, response: v.array(R.Plan) },
  { method: 'get', path: '/company/all.json', summary: 'Empresas soportadas (1 = Registro manual)', tag: 'Catálogos', auth: false, response: v.array(R.Company) },
  {
    method: 'get', path: '/api/v2/tickets', summary: 'Tickets de un RFC propio en un mes de la Ciudad de México (o el año con usuario[view]=annual), del más reciente al más antiguo', tag: 'Tickets', auth: true, response: v.union([R.TicketList, R.Stats]), errors: [404],
    params: {
      'usuario[rfc_owner]': '*RFC de una cuenta fiscal propia',
      'date[year]': '*Año',
      'date[month]': 'Mes 1-12 (requerido salvo en la vista anual)',
      'usuario[view]': '`annual` para todo el año',
      action: '`stats`: en lugar de los tickets, los totales de gastos e ingresos de cada uno de los 12 meses de date[year]',
    },
  },
  { method: 'put', path: '/api/v2/update_ticket', summary: 'Cambiar la categoría, la categoría de ingreso o la nota de un ticket propio', tag: 'Tickets', auth: true, body: UpdateTicketBody, response: R.Ticket, errors: [404] },
  { method: 'delete', path: '/api/v2/tickets', summary: 'Eliminar tickets propios', tag: 'Tickets', auth: true, body: RemoveTicketsBody, response: R.Deleted },
  {
    method: 'post', path: '/tickets/{id}/attach_image', summary: 'Adjuntar (o reemplazar) la imagen de un ticket propio: png, jpeg, webp o gif de hasta 2 MB', tag: 'Tickets', auth: true, status: 204, files: ['images[0]'], errors: [404, 413, 415],
    params: { id: '*ticket_id' },
  },
  {
    method: 'get', path: '/api/v2/ticket_image', summary: 'La imagen de un ticket propio (con el token, o con `link`: un enlace firmado de POST /api/v3/file_links)', tag: 'Tickets', auth: true, contentType: 'image/*', errors: [404],
    params: { ticket_id: '*ticket_id', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  },
  {
    method: 'get', path: '/receipt_xml', summary: 'El XML de un comprobante propio, byte por byte, como descarga (con el token, o con `link`: un enlace firmado de POST /api/v3/file_links)', tag: 'Comprobantes', auth: true, contentType: 'application/xml', errors: [404, 410],
    params: { receipt_id: '*receipt_id del ticket', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  },
  {
    method: 'get', path: '/receipt_pdf', summary: 'El PDF de un comprobante propio: el importado o, si no hay, uno generado del XML con el QR de verificación del SAT', tag: 'Comprobantes', auth: true, contentType: 'application/pdf', errors: [404, 410, 422],
    params: { receipt_id: '*receipt_id del ticket', download: '`1` para descargarlo en lugar de abrirlo', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  },
  {
    method: 'get', path: '/api/v3/receipts/archive', summary: 'Un zip con el PDF y el XML de los tickets propios elegidos que tienen comprobante (hasta 500), enviado conforme se arma', tag: 'Comprobantes', auth: true, contentType: 'application/zip', errors: [400, 404],
    params: { 'tickets[]': '*ticket_id (uno por parámetro)' },
  },
  {
    method: 'post', path: '/api/v3/file_links', summary: 'Un enlace firmado que abre, sin el token de sesión, un solo archivo propio (el PDF o el XML de un comprobante, o la imagen de un ticket) durante 5 minutos: para abrirlo en otra pestaña o descargarlo', tag: 'Comprobantes', auth: true, body: FileLinkBody,
    response: v.object({ url: v.pipe(v.string(), v.description('ruta en este servidor, con el enlace en `link`')), expires_at: v.pipe(v.string(), v.description('ISO 8601: desde entonces responde 410')) }), errors: [404],
  },
  {
    method: 'post', path: '/api/v2/send_receipt_email', summary: 'Enviar por correo el PDF y el XML de los comprobantes de tickets propios (hasta 50), con copia al correo del usuario; 20 envíos por hora', tag: 'Comprobantes', auth: true, body: ShareReceiptsBody, response: R.ShareSent, errors: [400, 422, 429, 502],
  },
  {
    method: 'post', path: '/api/v3/users/{id}/files', summary: 'Importar CFDIs: hasta 100 archivos XML, PDF o ZIP de hasta 2 MB cada uno (campo `file`, repetido; `rfc` opcional elige la cuenta). Se importan en segundo plano; el estado de cada uno llega por /files/statuses', tag: 'Importar CFDIs', auth: true, files: ['file'], response: R.UploadedFiles, errors: [404, 413, 415, 422],
    params: { id: '*user_id del usuario que llama' },
  },
  {
    method: 'get', path: '/api/v3/users/{id}/files/statuses', summary: 'Server-sent events: evento `file` con {id,name,status,reason,parent_id,ticket_ids} por cada subida de las últimas 24 h y por cada cambio; comentario de latido cada 15 s (la app lo lee con fetch y el token en el encabezado, nunca en la URL)', tag: 'Importar CFDIs', auth: true, contentType: 'text/event-stream', errors: [404],
    params: { id: '*user_id del usuario que llama', 'ids[]': 'solo estas subidas (y las entradas de esos zips)' },
  },
  {
    method: 'get', path: '/api/v3/analytics/spending/{rfc}/{year}/{month}', summary: 'Gasto (tipo 2) de un mes de un RFC propio por establecimiento y por categoría, y el del mes anterior', tag: 'Análisis', auth: true, response: R.SpendingAnalytics, errors: [400, 404],
    params: { rfc: '*RFC de una cuenta fiscal propia', year: '*Año, 2013 o posterior', month: '*Mes 1-12' },
  },
  {
    method: 'get', path: '/api/v3/analytics/spending/{rfc}/{year}', summary: 'Gasto (tipo 2) de un año de un RFC propio por establecimiento y por categoría, y el del año anterior', tag: 'Análisis', auth: true, response: R.SpendingAnalytics, errors: [400, 404],
    params: { rfc: '*RFC de una cuenta fiscal propia', year: '*Año, 2013 o posterior' },
  },
  {
    method: 'get', path: '/api/v3/exchange_rates', summary: 'Tipo de cambio FIX (MXN por unidad) de una fecha; sin publicación ese día, la última dentro de 7 días', tag: 'Tipo de cambio', auth: true, response: R.ExchangeRate, errors: [404],
    params: { base: '*USD, EUR, GBP, JPY o CAD', date: 'aaaa-mm-dd (hoy si falta)' },
  },
  { method: 'put', path: '/api/v3/exchange_rates', summary: 'Registrar un tipo de cambio a mano (solo personal de soporte)', tag: 'Tipo de cambio', auth: true, body: ManualRateBody, response: R.ExchangeRate, errors: [403] },
];

/** Every endpoint: the core ones above and each area's own list. */
export const ENDPOINTS: Endpoint[] = [...CORE_ENDPOINTS, ...MERCHANT_ENDPOINTS, ...INVOICING_ENDPOINTS, ...TICKET_VIEW_ENDPOINTS, ...PLANS_ENDPOINTS, ...CHAT_ENDPOINTS, ...SAT_SYNC_ENDPOINTS, ...RFC_VERIFICATION_ENDPOINTS, ...OAUTH_ENDPOINTS, ...COMPANY_ENDPOINTS, ...COMPANY_VIEW_ENDPOINTS, ...PER_DIEM_ENDPOINTS];
