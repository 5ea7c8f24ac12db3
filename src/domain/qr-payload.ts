// What a scanned QR code says ('Escanear código'): a merchant ticket of ours, or a CFDI's SAT
// verification link. Only parameters are taken from a scan: the app never follows a scanned URL.
// The server checks every parameter again (ref, check code and total must match one merchant ticket).

export interface MerchantTicketQr {
  kind: 'merchant';
  short_name: string;
  ref: string;
  check: string;
  /** The ticket's total as printed, 2 decimals. */
  total: string;
}

export interface CfdiQr {
  kind: 'cfdi';
  /** UUID, uppercase. */
  uuid: string;
  /** RFC emisor and receptor. */
  re: string;
  rr: string;
  /** Total as written in the QR (tt). */
  tt: string;
  /** Last 8 characters of the Sello (fe); absent in CFDI 3.2 QRs. */
  fe: string;
}

export type ScannedQr = MerchantTicketQr | CfdiQr;

const REF_RE = /^[A-Z0-9]{12,32}$/;
const SHORT_RE = /^[a-z0-9-]{2,60}$/;
const CHECK_RE = /^[A-Z0-9]{0,16}$/;
const TOTAL_RE = /^[0-9]{1,12}\.[0-9]{2}$/;
const UUID_RE = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const RFC_RE = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$/;

/** The QR printed on a merchant ticket: our app's merchant form, prefilled. */
export function merchantTicketQrUrl(origin: string, t: Omit<MerchantTicketQr, 'kind'>): string {
  const q = new URLSearchParams({ ref: t.ref, check: t.check, total: t.total });
  return `${origin.replace(/\/+$/, '')}/#/merchant/${encodeURIComponent(t.short_name)}?${q.toString()}`;
}

/** SAT's verification host (CFDI 3.3 and 4.0 QRs; 3.2 used the same host with another parameter order). */
export const SAT_VERIFY_HOST = 'verificacfdi.facturaelectronica.sat.gob.mx';

export function parseScannedQr(text: string): ScannedQr | null {
  const raw = text.trim();
  if (raw.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.hostname.toLowerCase() === SAT_VERIFY_HOST) return parseCfdi(url.searchParams);
  // Ours: …/#/merchant/{short}?ref=…&check=…&total=…
  const m = /^#\/merchant\/([^?/]+)\?(.*)$/.exec(url.hash);
  if (!m) return null;
  const short = decodeURIComponent(m[1] ?? '');
  const q = new URLSearchParams(m[2] ?? '');
  const ref = (q.get('ref') ?? '').toUpperCase();
  const check = (q.get('check') ?? '').toUpperCase();
  const total = q.get('total') ?? '';
  if (!SHORT_RE.test(short) || !REF_RE.test(ref) || !CHECK_RE.test(check) || !TOTAL_RE.test(total)) return null;
  return { kind: 'merchant', short_name: short, ref, check, total };
}

function parseCfdi(q: URLSearchParams): CfdiQr | null {
  const uuid = (q.get('id') ?? '').toUpperCase();
  const re = (q.get('re') ?? '').toUpperCase();
  const rr = (q.get('rr') ?? '').toUpperCase();
  const tt = q.get('tt') ?? '';
  const fe = q.get('fe') ?? '';
  if (!UUID_RE.test(uuid) || !RFC_RE.test(re) || !(RFC_RE.test(rr) || rr === 'XEXX010101000' || rr === 'XAXX010101000')) return null;
  if (!/^[0-9]{1,18}(\.[0-9]{1,6})?$/.test(tt)) return null;
  if (fe && !/^[A-Za-z0-9+/=]{8}$/.test(fe)) return null;
  return { kind: 'cfdi', uuid, re, rr, tt, fe };
}
