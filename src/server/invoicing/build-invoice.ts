// The CFDI 4.0 of an invoice request: Emisor = the merchant, Receptor = the requester's tax data, one
// Concepto per ticket item (ObjetoImp 02 with its IVA traslado: 16, 8, 0 % or Exento), MetodoPago PUE,
// LugarExpedicion = the (first) ticket's branch postal code, and the Fecha the local time there (SAT's
// CFDI40101: a Tijuana branch's invoice carries Tijuana's time, not Mexico City's).
// The conceptos are the merchant tickets' own (cfdi/ticket-conceptos.ts), the ones its ticket totals were
// computed with, so the invoice states exactly the ticket's subtotal, IVA and total.
// Several tickets paid differently: FormaPago is the one that paid the largest amount, as SAT's
// Anexo 20 guide asks when a payment is made with several forms (PUE may not use 99 'Por definir').
import { cfdiFechaAt } from '../../domain/cfdi-time-zone';
import { toCents } from '../../domain/decimal';
import { RFC_FOREIGN } from '../../domain/rfc';
import type { CfdiInput } from '../cfdi/build';
import type { InvoiceReceiver } from '../db/schema';
import { ticketConceptos } from '../cfdi/ticket-conceptos';
import type { Issuer, MerchantTicketRow } from './ports';

export interface InvoiceInputSource {
  requestId: string;
  issuer: Issuer;
  receiver: InvoiceReceiver;
  tickets: readonly MerchantTicketRow[];
  /** The UUID this invoice replaces (refacturación): related with TipoRelacion 04. */
  replacesUuid?: string | null;
  now: Date;
}

/** The request's CfdiInput (see the header for each decision). */
export function invoiceInput(src: InvoiceInputSource): CfdiInput {
  const { issuer, receiver, tickets } = src;
  if (tickets.length === 0) throw new Error('an invoice request without tickets');
  const byForma = new Map<string, bigint>();
  for (const t of tickets) byForma.set(t.formaPago, (byForma.get(t.formaPago) ?? 0n) + (toCents(t.total) ?? 0n));
  const formaPago = [...byForma.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : 0))[0]![0];
  const lugar = tickets[0]!.postalCode || issuer.postalCode;
  const foreign = receiver.rfc === RFC_FOREIGN;
  return {
    serie: 'CC',
    folio: src.requestId.replace(/-/g, '').toUpperCase(),
    fecha: cfdiFechaAt(src.now, lugar),
    formaPago,
    metodoPago: 'PUE',
    tipoDeComprobante: 'I',
    exportacion: '01',
    lugarExpedicion: lugar,
    cfdiRelacionados: src.replacesUuid ? [{ tipoRelacion: '04', uuids: [src.replacesUuid] }] : undefined,
    emisor: { rfc: issuer.rfc, nombre: issuer.legalName, regimenFiscal: issuer.taxRegime },
    receptor: {
      rfc: receiver.rfc,
      nombre: receiver.nombre,
      // SAT: a foreign receiver's DomicilioFiscalReceptor is the LugarExpedicion (CFDI40149).
      domicilioFiscalReceptor: foreign ? lugar : receiver.codigo_postal,
      residenciaFiscal: foreign ? receiver.residencia_fiscal : undefined,
      numRegIdTrib: foreign ? receiver.num_reg_id_trib : undefined,
      regimenFiscalReceptor: receiver.regimen_fiscal,
      usoCfdi: receiver.uso_cfdi,
    },
    // '|' separates the cadena original's fields, so SAT forbids it in text: a ticket line's '|' becomes '/'.
    conceptos: tickets.flatMap((t) =>
      ticketConceptos(t.items).map((c) => ({ ...c, descripcion: c.descripcion.replace(/\|/g, '/'), noIdentificacion: t.ticketNumber.replace(/\|/g, '/').slice(0, 100) }))),
  };
}
