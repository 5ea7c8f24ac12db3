// The calls of 'Facturar ticket': form fields, verify, invoice requests, RFC check.
// No Dexie here: the signed-out anonymous form uses it too.
import type { AnonymousInvoiceRequest, InvoiceRequestStatus, VerifiedTicket } from '../../domain/invoicing';

export type { VerifiedTicket };
import type { FieldValue, FormFieldDefinition } from '../../domain/merchant-fields';
import type { FileLink, FileTarget } from '../../domain/file-links';
import { ApiError } from '../../offline/http';
import { api } from './client';
import { requestFileLink } from './file-links';

export type VerifyFlow = 'form' | 'merchant' | 'anonymous' | 'multi';

/** A merchant ticket as GET /api/v33/tickets/verify answers. */

export interface InvoiceRequestView {
  request_id: string;
  status: InvoiceRequestStatus;
  error: string | null;
  email: string;
  uuid: string | null;
  pdf_url: string | null;
}

export interface QrRef {
  ref: string;
  check: string;
  total: string;
}

export const getFormFields = (companyId: number, signal?: AbortSignal) =>
  api.get<FormFieldDefinition[]>('/form/fields.json', { 'company[id]': companyId }, signal);

/** Bracketed query: values[<form_configuration_id>]=<value> (DESIGN §3). */
export function verifyQuery(companyId: number, lookup: readonly FieldValue[] | QrRef, flow: VerifyFlow): Record<string, string | number> {
  const q: Record<string, string | number> = { 'company[id]': companyId, flow };
  if (Array.isArray(lookup)) {
    for (const v of lookup as readonly FieldValue[]) q[`values[${v.form_configuration_id}]`] = v.value;
  } else {
    const r = lookup as QrRef;
    q.ref = r.ref;
    q.check = r.check;
    q.total = r.total;
  }
  return q;
}

export const verifyTicket = (companyId: number, lookup: readonly FieldValue[] | QrRef, flow: VerifyFlow) =>
  api.get<VerifiedTicket>('/api/v33/tickets/verify', verifyQuery(companyId, lookup, flow));

/** What refacturar shows besides the ref, as verify's QR path asks it: the check code and the total (and the form's values). */
export interface RefacturaProof {
  refactura: 1;
  ticket?: FieldValue[];
  check?: string;
  total: string;
}

/** ticket_id: the account ticket a signed-in request creates (client ≠ 0), idempotent. */
export const requestInvoice = (ref: string, body: AnonymousInvoiceRequest & { ticket_id?: string } & Partial<RefacturaProof>) =>
  api.post<{ request_id: string; status: InvoiceRequestStatus }>(`/api/v33/tickets/${encodeURIComponent(ref)}/invoice4`, body);

export const getInvoiceRequest = (id: string) =>
  api.get<InvoiceRequestView>(`/api/v33/invoice_requests/${encodeURIComponent(id)}`);

export const resendInvoice = (id: string) =>
  api.post<{ status: InvoiceRequestStatus }>(`/api/v33/invoice_requests/${encodeURIComponent(id)}/resend`);

export const invoicePdfUrl = (id: string) => `/api/v33/invoice_requests/${encodeURIComponent(id)}/pdf`;

/**
 * The link a signed-in user opens an invoice request's PDF with. Their own request's PDF needs a signed
 * short-lived link (the session is never put in a URL); a request that is not theirs to sign for (404)
 * is an anonymous one, whose id is its own capability, so the plain path opens it. Other failures
 * (offline, the server) are thrown for the opener to say why.
 */
export async function invoicePdfLink(id: string, request: (target: FileTarget) => Promise<FileLink> = requestFileLink): Promise<FileLink> {
  try {
    return await request({ kind: 'invoice_pdf', id });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { url: invoicePdfUrl(id), expires_at: '' };
    throw err;
  }
}

/** 200 = active; a 422 carries MSG.rfcPatternInvalid or MSG.rfcInactive. */
export const checkRfc = (rfc: string) => api.get<{ rfc: string; active: boolean }>(`/api/v3/rfc/${encodeURIComponent(rfc)}`);

export interface MultiTicketBody {
  usuario: { rfc: string };
  company: { id: number };
  tickets: FieldValue[][];
  additional_info: { note?: string; uso_cfdi?: string; ticket_id?: string };
}

export const createMultiTicket = (body: MultiTicketBody) =>
  api.post<{ ticket: { ticket_id: string } }>('/form/ticket_create_multi?format=json', body);

const FINAL: readonly InvoiceRequestStatus[] = ['enviada', 'error', 'sustituida'];

/**
 * Follows a request until it is sent or failed, or `timeoutMs` passes (then the last state: the
 * job keeps running on the server and the e-mail still arrives).
 */
export async function followInvoiceRequest(
  id: string,
  opts: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal; get?: typeof getInvoiceRequest; sleep?: (ms: number) => Promise<void> } = {},
): Promise<InvoiceRequestView> {
  const interval = opts.intervalMs ?? 1500;
  const deadline = Date.now() + (opts.timeoutMs ?? 45_000);
  const get = opts.get ?? getInvoiceRequest;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let last = await get(id);
  while (!FINAL.includes(last.status) && Date.now() < deadline && !opts.signal?.aborted) {
    await sleep(interval);
    last = await get(id);
  }
  return last;
}
