// Request bodies and answers of the invoicing endpoints (validated here, documented in openapi.ts).
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { NOTE_MAX } from '../../domain/spending-form';


const idParam = v.pipe(v.string(MSG.ticketNotFound), v.uuid(MSG.ticketNotFound));
const num = v.pipe(v.union([v.number(), v.string()], MSG.notFound), v.transform(Number), v.integer(MSG.notFound));
const FieldValues = v.pipe(
  v.array(v.object({ form_configuration_id: num, value: v.pipe(v.string(MSG.fieldRequired), v.maxLength(255)) }), MSG.ticketNotFound33),
  v.maxLength(40),
);
const AdditionalInfo = v.optional(
  v.object({
    ticket_id: v.optional(idParam),
    note: v.optional(v.pipe(v.string(), v.maxLength(NOTE_MAX, MSG.noteTooLong)), ''),
    uso_cfdi: v.optional(v.pipe(v.string(MSG.usoRequired), v.maxLength(4, MSG.usoRequired)), 'G03'),
  }),
  {},
);

/** POST /form/ticket_create for a merchant (spec §3 New ticket payload, plus uso_cfdi). */
export const MerchantTicketCreateBody = v.object({
  usuario: v.object({ rfc: v.pipe(v.string(MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)) }, MSG.rfcInvalid),
  company: v.object({ id: num }, MSG.notFound),
  ticket: FieldValues,
  additional_info: AdditionalInfo,
});

/** POST /form/ticket_create_multi: one invoice for 2 to 10 tickets of one merchant. */
export const MultiTicketCreateBody = v.object({
  usuario: v.object({ rfc: v.pipe(v.string(MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)) }, MSG.rfcInvalid),
  company: v.object({ id: num }, MSG.notFound),
  tickets: v.pipe(v.array(FieldValues, MSG.multiTicketNotFound), v.minLength(2, MSG.multiTicketNotFound), v.maxLength(10, MSG.multiTicketNotFound)),
  additional_info: AdditionalInfo,
});

const text = (max: number, message: string) => v.pipe(v.string(message), v.maxLength(max, message));

/** POST /api/v33/tickets/{ref}/invoice4 (spec §3 Anonymous invoice request, plus codigo_postal). */
export const Invoice4Body = v.object({
  client: v.optional(num, 0),
  email: text(254, MSG.receiverEmailInvalid),
  rfc: text(13, MSG.rfcPatternInvalid),
  uso_cfdi: text(4, MSG.usoRequired),
  forma_pago: v.optional(v.string()),
  nombre: text(300, MSG.receiverNameRequired),
  residencia_fiscal: v.optional(text(3, MSG.countryInvalid)),
  num_reg_id_trib: v.optional(text(40, MSG.numRegIdTribRequired)),
  regimen_fiscal_receptor: text(40, MSG.regimeRequired),
  codigo_postal: text(5, MSG.postalCodeInvalid),
  refactura: v.optional(v.union([v.literal(1), v.literal('1'), v.literal(true)])),
  /** For the merchant form (signed in): a client ticket id to create, idempotent. */
  ticket_id: v.optional(idParam),
  // Refacturar proves the ticket as the verify step's QR path does: its check code and total (the ref
  // alone travels in receipt links); the form's values, when sent, must match as well.
  ticket: v.optional(FieldValues),
  check: v.optional(text(64, MSG.refacturaProofMismatch)),
  total: v.optional(v.pipe(v.union([v.string(), v.number()], MSG.refacturaProofMismatch), v.transform(String), v.maxLength(24, MSG.refacturaProofMismatch))),
});

export const CfdiImportBody = v.object({
  uuid: v.pipe(v.string(MSG.notFound), v.regex(/^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/, MSG.notFound)),
  // The SAT QR's emisor RFC, receptor RFC and total: they must match the stored CFDI too.
  re: v.optional(v.pipe(v.string(MSG.cfdiImportQrMissing), v.maxLength(13, MSG.cfdiImportQrMismatch))),
  rr: v.optional(v.pipe(v.string(MSG.cfdiImportQrMissing), v.maxLength(13, MSG.cfdiImportQrMismatch))),
  tt: v.optional(v.pipe(v.union([v.string(), v.number()], MSG.cfdiImportQrMissing), v.transform(String), v.maxLength(30, MSG.cfdiImportQrMismatch))),
});

// ---- answers (documentation) ----

const status = v.picklist(['solicitada', 'timbrada', 'enviada', 'error', 'sustituida']);
export const RequestAccepted = v.object({ request_id: v.string(), status });
export const RequestState = v.object({
  request_id: v.string(),
  status,
  error: v.nullable(v.string()),
  email: v.string(),
  uuid: v.nullable(v.string()),
  pdf_url: v.nullable(v.string()),
});
export const TicketCreated = v.object({ ticket: v.object({ ticket_id: v.string() }), request_id: v.string() });
export const CfdiLookup = v.object({
  uuid: v.string(),
  rfc_issuer: v.string(),
  name_issuer: v.string(),
  rfc_receiver: v.string(),
  total: v.string(),
  emission_date: v.nullable(v.string()),
  state: v.picklist(['importable', 'imported', 'unknown']),
  ticket_id: v.nullable(v.string()),
});
export const CfdiImported = v.object({ ticket_id: v.string() });
export const StatusOnly = v.object({ status });


