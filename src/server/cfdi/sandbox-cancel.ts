// SAT's cancellation rules as the sandbox PAC applies them (SAT answers a real PAC the same way):
// - the request: motive 01–04 (207); motive 01 needs a FolioSustitucion, a UUID other than the one
//   cancelled (208), and the others must not carry one (209);
// - the deadline: a CFDI may be cancelled until the month its annual return is due — March of the
//   next year for a persona moral (12-character RFC), April for a persona física (210); a global
//   invoice (InformacionGlobal) only within the month it was issued (211);
// - with motive 01 the replacement must be a CFDI of the same emisor, vigente, that relates this one
//   with TipoRelacion 04 (212 otherwise);
// - no cancelable (204) while a vigente CFDI relates it other than as its substitute (a credit note,
//   a payment complement that pays it);
// - cancelable SIN aceptación (cancelled at once) under the RMF's rule 2.7.1.34: an amount up to
//   $1,000.00 MXN, nómina, egreso, traslado, issued to público en general (XAXX010101000) or to a
//   foreign resident (XEXX010101000), or cancelled within 24 hours of its stamp; otherwise CON
//   aceptación: 'En proceso' while the receptor has 72 hours to answer, cancelled if it accepts or
//   lets the time run out (plazo vencido), kept vigente if it refuses.
import { productCents } from '../../domain/decimal';
import { mexicoCityMonth } from '../../domain/mexico-time';
import { CANCEL_MOTIVES, PacError, type CancelRequest, type Cancelable } from './pac';
import type { SandboxRecord } from './sandbox-ledger';

const UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const HOUR = 3_600_000;
/** How long the receptor has to accept or refuse a cancellation. */
export const ACCEPTANCE_WINDOW_MS = 72 * HOUR;
/** Cancelled within this time of its stamp: no acceptance needed. */
export const QUICK_CANCEL_MS = 24 * HOUR;
const LIMIT_SIN_ACEPTACION_CENTS = 100_000n;
const GENERIC_RECEPTORS = new Set(['XAXX010101000', 'XEXX010101000']);

/** A UUID as SAT writes it: uppercase, 8-4-4-4-12 hex digits, and not all zeros. */
export function normalUuid(s: string | undefined): string | null {
  const u = (s ?? '').trim().toUpperCase();
  return UUID.test(u) && !/^[0-]+$/.test(u) ? u : null;
}

/** The request's own shape (207, 208, 209), before anything is looked up. */
export function checkCancelShape(request: CancelRequest): { uuid: string; replacement: string | null } {
  if (!CANCEL_MOTIVES.includes(request.motive)) {
    throw new PacError('207', 'No se especificó el motivo de cancelación o el motivo no es válido');
  }
  const uuid = normalUuid(request.uuid);
  if (!uuid) throw new PacError('205', 'UUID No existe');
  const given = (request.replacement ?? '').trim();
  if (request.motive !== '01') {
    if (given) throw new PacError('209', 'Folio Sustitución no requerido');
    return { uuid, replacement: null };
  }
  const replacement = normalUuid(given);
  if (!replacement || replacement === uuid) throw new PacError('208', 'Folio Sustitución invalido');
  return { uuid, replacement };
}

/** 210 and 211: too late to cancel this CFDI at `now`. */
export function checkCancelDeadline(record: SandboxRecord, now: Date): void {
  const stamped = new Date(record.stampedAt);
  const issuedMonth = mexicoCityMonth(stamped);
  if (record.global && mexicoCityMonth(now) !== issuedMonth) {
    throw new PacError('211', 'La fecha de solicitud de cancelación límite para factura global');
  }
  const year = Number(issuedMonth.slice(0, 4));
  const lastMonth = `${year + 1}-${record.rfcEmisor.length === 12 ? '03' : '04'}`;
  if (mexicoCityMonth(now) > lastMonth) {
    throw new PacError('210', 'La fecha de solicitud de cancelación es mayor a la fecha de declaración');
  }
}

/** 212: the replacement must be the same emisor's, vigente, and relate `record` as its substitute (04). */
export function checkReplacement(record: SandboxRecord, replacement: SandboxRecord | undefined): void {
  if (!replacement) throw new PacError('208', 'Folio Sustitución invalido');
  const relates = replacement.relates.some((r) => r.tipoRelacion === '04' && r.uuid === record.uuid);
  if (replacement.rfcEmisor !== record.rfcEmisor || replacement.cancellation?.state === 'cancelada' || !relates) {
    throw new PacError('212', 'Relación no valida o inexistente');
  }
}

/** 204: a vigente CFDI relates this one other than as its substitute. `live` = those not cancelled. */
export function checkNotBlocked(record: SandboxRecord, live: ReadonlySet<string>): void {
  const blocking = record.relatedBy.filter((r) => r.how !== '04' && live.has(r.uuid));
  if (blocking.length > 0) {
    throw new PacError('204', `UUID no aplicable para cancelación: no cancelable, tiene CFDI relacionados vigentes (${blocking.map((b) => b.uuid).join(', ')})`);
  }
}

/** SAT's EsCancelable for `record` asked at `now` (it is not blocked: see checkNotBlocked). */
export function cancelableOf(record: SandboxRecord, now: Date): Cancelable {
  const mxn = productCents(record.total, record.tipoCambio || '1');
  const small = record.tipo === 'I' && mxn !== null && mxn <= LIMIT_SIN_ACEPTACION_CENTS;
  const kind = record.tipo === 'N' || record.tipo === 'E' || record.tipo === 'T';
  const quick = now.getTime() - new Date(record.stampedAt).getTime() <= QUICK_CANCEL_MS;
  return small || kind || quick || GENERIC_RECEPTORS.has(record.rfcReceptor) ? 'Cancelable sin aceptación' : 'Cancelable con aceptación';
}
