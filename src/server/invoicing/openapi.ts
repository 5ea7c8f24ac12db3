// The OpenAPI entries of src/server/invoicing's routes (collected by src/server/endpoints.ts).
import * as v from 'valibot';
import { CreateTicketBody } from '../../domain/ticket-schemas';
import type { Endpoint } from '../openapi/document';
import * as R from '../openapi/responses';
import {
  CfdiImportBody, CfdiImported, CfdiLookup, Invoice4Body, MerchantTicketCreateBody, MultiTicketCreateBody, RequestAccepted,
  RequestState, StatusOnly, TicketCreated,
} from './schemas';

const TAG = 'Facturación de tickets';
const id = { id: '*Id de la solicitud de factura (UUID)' };

export const INVOICING_ENDPOINTS: Endpoint[] = [
  // Replaces the core entry of the same path (one operation per path): both branches are documented here.
  {
    method: 'post', path: '/form/ticket_create', tag: 'Tickets', auth: true, body: v.union([CreateTicketBody, MerchantTicketCreateBody]),
    response: v.union([R.TicketCreated, TicketCreated]), params: { format: '`json`' },
    summary: 'Registrar un gasto (tipo 2) o ingreso (tipo 4) manual con company[id]=1; con company[id] de un comercio, solicitar la factura del ticket que describen sus campos (crea el ticket "pendiente" y la solicitud; el RFC elegido necesita código postal y régimen fiscal). Idempotente por additional_info.ticket_id',
    errors: [404, 409, 422, 503],
  },
  {
    method: 'post', path: '/form/ticket_create_multi', tag: TAG, auth: true, body: MultiTicketCreateBody, response: TicketCreated,
    summary: 'Una sola factura para 2 a 10 tickets del mismo comercio', errors: [404, 409, 422, 503],
  },
  {
    method: 'post', path: '/api/v33/tickets/{ref}/invoice4', tag: TAG, auth: false, body: Invoice4Body, response: RequestAccepted, status: 202,
    summary: 'Solicitar la factura del ticket con esa referencia: formulario anónimo (client 0, solo en comercios que lo ofrecen) o del comercio con sesión (client = id de tu RFC); refactura 1 sustituye la factura anterior si se demuestra el ticket (check: su código de facturación, el de su QR, y total; ticket: sus campos, si se envían, deben coincidir) y, si la solicitó una cuenta, solo con la sesión de esa cuenta',
    params: { ref: '*Referencia pública del ticket (16 caracteres)' }, errors: [401, 403, 404, 409, 422, 429, 503],
  },
  {
    method: 'get', path: '/api/v33/invoice_requests/{id}', tag: TAG, auth: false, response: RequestState, params: id, errors: [404],
    summary: 'Dónde está la factura: solicitada → timbrada → enviada, o el error (correo enmascarado y, si la pidió una cuenta, pdf_url null salvo para su dueño)',
  },
  {
    method: 'get', path: '/api/v33/invoice_requests/{id}/pdf', tag: TAG, auth: false, contentType: 'application/pdf', errors: [404, 410],
    params: { ...id, link: 'enlace firmado de POST /api/v3/file_links (kind invoice_pdf), en lugar del token (vencido: 410)' },
    summary: 'El PDF de la factura, ya timbrada: la de una solicitud anónima con su id; la de una cuenta solo para esa cuenta (con el token, o con `link`)',
  },
  {
    method: 'post', path: '/api/v33/invoice_requests/{id}/resend', tag: TAG, auth: false, response: StatusOnly, params: id, errors: [404, 409, 429],
    summary: 'Reenviar la factura (PDF y XML) al correo registrado en la solicitud',
  },
  {
    method: 'post', path: '/api/v3/invoice_requests/{id}/retry', tag: TAG, auth: true, response: RequestAccepted, status: 202, params: id, errors: [404, 409, 503],
    summary: 'Reintentar una solicitud con error (solo su dueño)',
  },
  {
    method: 'get', path: '/api/v3/cfdi/lookup', tag: TAG, auth: true, response: CfdiLookup, errors: [400],
    summary: 'Buscar el CFDI de un QR de verificación del SAT: importable (lo emitimos), imported (ya está en tu cuenta) o unknown',
    params: { id: '*UUID', re: 'RFC emisor', rr: 'RFC receptor', tt: 'Total' },
  },
  {
    method: 'post', path: '/api/v3/cfdi/import', tag: TAG, auth: true, body: CfdiImportBody, response: CfdiImported, errors: [403, 404, 422],
    summary: 'Importar a tu cuenta un CFDI que emitimos, con los datos de su QR del SAT: UUID, re, rr y tt (400 si faltan, 422 si no coinciden con el CFDI). Solo a cuentas con el RFC verificado (403), como en Importar CFDIs',
  },
];
