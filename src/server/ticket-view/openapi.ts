// The OpenAPI entries of src/server/ticket-view's routes (collected by src/server/endpoints.ts).
import type { Endpoint } from '../openapi/document';

export const TICKET_VIEW_ENDPOINTS: Endpoint[] = [
  {
    method: 'get', path: '/api/v3/tickets/{ref}', tag: 'Tickets de comercios', auth: false, contentType: 'application/xml', errors: [404],
    summary:
      'Vista pública de un ticket de comercio: el ticket en XML (<Ticket rfc folio fecha lugar formaPago subtotal impuestos total venue> con un <Concepto descripcion cantidad importe/> por renglón); ' +
      'encabezados X-Venue-Name (nombre del comercio, UTF-8 codificado con %) y X-Venue-Logo (ruta del logo)',
    params: { ref: '*Referencia del ticket (16 caracteres A-Z 0-9)', format: '`json`' },
  },
  {
    method: 'get', path: '/api/v3/tickets/{ref}/qr.svg', tag: 'Tickets de comercios', auth: false, contentType: 'image/svg+xml', errors: [404],
    summary: 'QR de 180×180 (SVG) con el enlace de verificación {origen}/#/tickets?ref={ref}&rfc={rfc}&folio={folio}',
    params: { ref: '*Referencia del ticket' },
  },
];
