// Tickets (spec §3 Ticket/Receipt, §4 statuses and row selection, DESIGN §3 ticket JSON).
import { monthKey } from './dates';
import { mexicoCityDate } from './mexico-time';

/** 2 = expense; 3 = income from an issued CFDI; 4 = manual income. */
export const TICKET_TYPE = { expense: 2, incomeCfdi: 3, income: 4 } as const;
export type TicketTypeId = (typeof TICKET_TYPE)[keyof typeof TICKET_TYPE];
export const INCOME_TYPES: readonly number[] = [TICKET_TYPE.incomeCfdi, TICKET_TYPE.income];

/**
 * Status ids and their names. The spec fixes 3 (manual spending) and 9 (manual income); the
 * other ids are ours. Names are the spec's, verbatim (they are shown and compared as strings).
 */
export const TICKET_STATUS = {
  1: 'guardado',
  2: 'pendiente',
  3: 'no facturable',
  4: 'facturado',
  5: 'error',
  6: 'aprobado',
  7: 'rechazado',
  8: 'recibido via qr',
  9: 'ingreso no facturable',
  10: 'Interno',
} as const;
export type TicketStatusId = keyof typeof TICKET_STATUS;
export type TicketStatusName = (typeof TICKET_STATUS)[TicketStatusId];
export const MANUAL_EXPENSE_STATUS = 3;
export const MANUAL_INCOME_STATUS = 9;
/** The reserved supported-company id for manual entries ('Registro manual', DESIGN §3). */
export const MANUAL_COMPANY_ID = 1;
export const MANUAL_COMPANY_SHORT_NAME = 'manual';
/** The origin of tickets made from a CFDI file (import, and the demo's invoices). */
export const CFDI_COMPANY_ID = 2;
export const CFDI_COMPANY_SHORT_NAME = 'cfdi';

export function statusName(id: number): TicketStatusName | undefined {
  return TICKET_STATUS[id as TicketStatusId];
}

/** How a status is shown: guardado, pendiente and Interno all show as pending (spec §4). */
export type StatusDisplay =
  | 'pending' | 'invoiced' | 'error' | 'approved' | 'rejected' | 'qr' | 'not-invoiceable' | 'income-not-invoiceable';

export function statusDisplay(name: string): StatusDisplay {
  switch (name) {
    case 'facturado': return 'invoiced';
    case 'error': return 'error';
    case 'aprobado': return 'approved';
    case 'rechazado': return 'rejected';
    case 'recibido via qr': return 'qr';
    case 'no facturable': return 'not-invoiceable';
    case 'ingreso no facturable': return 'income-not-invoiceable';
    default: return 'pending'; // guardado, pendiente, Interno
  }
}

export const STATUS_LABELS: Record<StatusDisplay, string> = {
  pending: 'Pendiente',
  invoiced: 'Facturado',
  error: 'Error',
  approved: 'Aprobado',
  rejected: 'Rechazado',
  qr: 'Recibido vía QR',
  'not-invoiceable': 'No facturable',
  'income-not-invoiceable': 'Ingreso no facturable',
};

export interface Receipt {
  receipt_id: string;
  rfc_issuer: string;
  name_issuer: string;
  rfc_receiver: string;
  /** Ours: the receiver's name as the CFDI writes it (who an issued invoice was for); absent from older servers. */
  name_receiver?: string;
  emission_date: string;
  uuid: string;
  imp_tras: string;
  imp_ret: string;
  metodo_pago: string;
  numctapago: string;
  /** SAT's status of the CFDI ('Vigente', 'Cancelado', 'No encontrado'); null until checked (ours). */
  sat_status?: string | null;
  // Ours, all optional (older servers and cached rows lack them). What the books and the row need
  // to treat each CFDI type as SAT means it (DESIGN §5).
  /** TipoDeComprobante. Absent = 'I'. */
  tipo?: CfdiTipo;
  /** The document's Total as written, in its own currency (a ticket's amount is what it counts in the books). */
  total?: string;
  details?: ReceiptDetails;
  /** The CFDI's Sello checked on import against its certificate and SAT's cadena. */
  seal?: SealState;
  /** The timbre's SelloSAT checked against the PAC's certificate when we have it. */
  seal_sat?: SealState;
  /** SAT's CFDI 4.0 rules the CFDI breaks, each with its code (CFDI40xxx) and a Spanish explanation. */
  findings?: CfdiFinding[];
  /** For an invoice paid in parcialidades (MetodoPago PPD): what its payment CFDI say. Absent otherwise. */
  payment?: ReceiptPayment | null;
  /** Our cancellation of this CFDI through the PAC. */
  cancel_status?: CancelStatus | null;
  /** The UUID that replaced this CFDI (refacturar: SAT's FolioSustitucion), when it was replaced. */
  replaced_by?: string | null;
  /** The CFDI this ticket's invoice replaced (refacturar), newest first, each with its state. */
  replaces?: { uuid: string; cancel_status: CancelStatus | null }[];
}

export type CfdiTipo = 'I' | 'E' | 'P' | 'N' | 'T';
export type SealState = 'valido' | 'invalido' | 'sin_sello' | 'sin_verificar';
export type CancelStatus = 'en_proceso' | 'cancelada' | 'rechazada';

export interface CfdiFinding {
  code: string;
  message: string;
}

/** Stored with the receipt (receipts.details) and sent as is. */
export interface ReceiptDetails {
  /** CfdiRelacionados: a credit note's invoices (TipoRelacion 01), a replaced CFDI (04), … */
  related?: { type: string; uuids: string[] }[];
  /** Nómina: the period paid (FechaInicialPago–FechaFinalPago), the pay date and the net pay. */
  payroll?: { from: string; to: string; paid_on: string; net: string };
  /** Pago: each invoice it pays, how much (in the invoice's currency) and the balance left. */
  pays?: { uuid: string; amount: string; currency: string; balance: string | null; installment: number | null }[];
}

/** 'pagada' (balance 0), 'parcial' (paid in part: balance left), 'pendiente' (PPD with no payment yet). */
export interface ReceiptPayment {
  status: 'pagada' | 'parcial' | 'pendiente';
  /** What is still owed, in the invoice's currency. */
  balance: string;
}

export interface TicketTag {
  tag_id: number;
  tag_name: string;
}

/** A ticket as the API sends it (DESIGN §3). */
export interface Ticket {
  ticket_id: string;
  ticket_type_id: number;
  ticket_status_name: string;
  /** ISO 8601 with the Mexico City offset. */
  received_at: string;
  company_short_name: string;
  ticket_number: string;
  /** MXN, 2 decimals, as a decimal string. */
  amount: string;
  tags: TicketTag[];
  income_meta_tag_id: number | null;
  note: string;
  include_ticket_image: boolean;
  ticket_image_text: string;
  user_area: string;
  username: string;
  receipt: Receipt | null;
  /** Ours: the account (RFC) it belongs to. */
  rfc: string;
  /** Ours: original currency and amount of a manual entry in foreign currency. */
  currency?: string;
  original_amount?: string | null;
  /** Ours: the company manager's decision on a collaborator's spending; null/absent = not reviewed. */
  review?: TicketReview | null;
}

/** A manager's approval or rejection (spec §4 aprobado / rechazado); a rejection carries its reason. */
export interface TicketReview {
  decision: 'aprobado' | 'rechazado';
  reason: string | null;
}

export function isIncome(t: Pick<Ticket, 'ticket_type_id'>): boolean {
  return INCOME_TYPES.includes(t.ticket_type_id);
}

/**
 * Row selection (spec §4): a row is selectable when it has a receipt and its status does not
 * end in 'qr', or when its status is 'no facturable'.
 */
export function isSelectable(t: Pick<Ticket, 'receipt' | 'ticket_status_name'>): boolean {
  if (t.ticket_status_name === 'no facturable') return true;
  return t.receipt !== null && !t.ticket_status_name.endsWith('qr');
}

/** Select-all picks only the selectable rows among the filtered ones. */
export function selectAllIds(filtered: readonly Ticket[]): string[] {
  return filtered.filter(isSelectable).map((t) => t.ticket_id);
}

/** The category shown for a ticket: its first tag (spec §3), else the default label. */
export function categoryOf(t: Pick<Ticket, 'tags'>): TicketTag | undefined {
  return t.tags[0];
}

/** 'YYYY-MM' of a ticket on Mexico City's calendar (DESIGN §3). */
export function ticketMonth(receivedAt: string): string {
  const { year, month } = mexicoCityDate(new Date(receivedAt));
  return monthKey(year, month);
}

/** An ISO instant for a yyyy/mm/dd date, at noon Mexico City time (UTC-6; no DST since 2022). */
export function receivedAtFromDate(yyyymmdd: string): string {
  const [y, m, d] = yyyymmdd.split('/');
  return `${y}-${m}-${d}T12:00:00-06:00`;
}

/**
 * Who the ticket is with, when a CFDI says it, by name where the CFDI gives one: the party that is not the
 * ticket's own account (the receiver of an invoice the account issued, the issuer of one it received);
 * when the account is neither, by type: the issuer for spending, the receiver for income. null = no
 * receipt; callers fall back to the supported company's name. The server's analytics group venues by
 * the issuer's name.
 */
export function receiptParty(t: Pick<Ticket, 'receipt' | 'ticket_type_id'> & { rfc?: string }): string | null {
  const r = t.receipt;
  if (!r) return null;
  const own = t.rfc?.toUpperCase();
  const issued = own ? r.rfc_issuer.toUpperCase() === own : INCOME_TYPES.includes(t.ticket_type_id);
  const received = own ? r.rfc_receiver.toUpperCase() === own && !issued : false;
  const receiverSide = issued || (!received && INCOME_TYPES.includes(t.ticket_type_id));
  if (receiverSide) return r.name_receiver?.trim() || r.rfc_receiver || null;
  return r.name_issuer.trim() || r.rfc_issuer || null;
}
