// The rules that need data SAT and Banxico publish, judged with what the server keeps of it (the
// exchange_rates table, SAT's list of cancelled RFCs in inactive_rfcs): CFDI40118 (TipoCambio further
// from the day's published rate than c_Moneda's variation, without a Confirmacion) and CFDI40138 /
// CFDI40143 (emisor / receptor on SAT's list of cancelled RFCs). Pure: the caller looks the data up
// beforehand (one batched query per import batch) and hands it in as synchronous lookups, so the
// engine still runs without a database. What is not known gives no finding: an unknown rate is not
// a wrong TipoCambio, and an RFC missing from our copy of the list is not proof that it is active.
import type { CfdiFinding } from '../../../domain/ticket';
import { parseLightXml } from '../light-xml';
import { MONEDA_VARIATION } from './catalogs';
import type { RuleContext, RuleModule } from './context';
import { cmp, dec, mul, sub } from './dec';
import { explain } from './messages';
import { attr, modelOf, type CfdiModel } from './model';

export interface PublishedLists {
  /**
   * Pesos per unit of `currency` published for `date` (yyyy-mm-dd), or for the latest earlier
   * publication within a few days; undefined when no such rate is known.
   */
  rate?(currency: string, date: string): string | undefined;
  /** The RFC is on SAT's list of cancelled RFCs (our copy of it). */
  cancelledRfc?(rfc: string): boolean;
}

/** What these rules read of a CFDI: from the engine's model, or from an import's CfdiData. */
export interface ListFacts {
  /** Comprobante@Fecha as written. */
  fecha: string;
  moneda: string;
  /** As written; '' when absent. */
  tipoCambio: string;
  /** As written; '' when absent. */
  confirmacion: string;
  emisorRfc: string;
  receptorRfc: string;
}

const GENERIC = new Set(['XAXX010101000', 'XEXX010101000']);
/** The shape of an RFC SAT's lists can hold: anything else (hostile or malformed) is never looked up. */
const LISTABLE = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$/;
const listable = (rfc: string) => LISTABLE.test(rfc) && !GENERIC.has(rfc);
const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const HUNDRED = { u: 100n, s: 0 };

/** The date (yyyy-mm-dd) whose published rate judges the CFDI's TipoCambio; null for no foreign rate. */
export function rateDateOf(f: Pick<ListFacts, 'fecha' | 'moneda'>): string | null {
  if (f.moneda === 'MXN' || f.moneda === 'XXX' || !MONEDA_VARIATION.has(f.moneda)) return null;
  const date = f.fecha.slice(0, 10);
  return ISO_DATE.test(date) ? date : null;
}

/** The RFCs whose standing on SAT's list these rules ask about (the generic ones never are). */
export function rfcsOf(f: Pick<ListFacts, 'emisorRfc' | 'receptorRfc'>): string[] {
  return [f.emisorRfc, f.receptorRfc].filter(listable);
}

function check(f: ListFacts, lists: PublishedLists, report: (code: string, message?: string) => void): void {
  const date = rateDateOf(f);
  const published = date && lists.rate ? lists.rate(f.moneda, date) : undefined;
  const tipoCambio = dec(f.tipoCambio);
  const rate = dec(published);
  const variation = MONEDA_VARIATION.get(f.moneda);
  if (f.confirmacion === '' && tipoCambio && rate && rate.u > 0n && variation !== undefined) {
    // |TipoCambio − rate| > rate × variation / 100, in exact decimals: |TipoCambio − rate| × 100 > rate × variation.
    const diff = sub(tipoCambio, rate);
    const distance = mul(diff.u < 0n ? { u: -diff.u, s: diff.s } : diff, HUNDRED);
    if (cmp(distance, mul(rate, { u: BigInt(variation), s: 0 })) > 0) {
      report(
        'CFDI40118',
        `El TipoCambio (${f.tipoCambio}) se aparta más del ${variation} % del tipo de cambio publicado para ${f.moneda} (${published}) y el CFDI no trae clave de Confirmación del PAC.`,
      );
    }
  }
  if (lists.cancelledRfc) {
    if (listable(f.emisorRfc) && lists.cancelledRfc(f.emisorRfc)) {
      report('CFDI40138', `El RFC del emisor (${f.emisorRfc}) está en la lista de RFC cancelados que publica el SAT: no está inscrito como activo.`);
    }
    if (listable(f.receptorRfc) && lists.cancelledRfc(f.receptorRfc)) {
      report('CFDI40143', `El RFC del receptor (${f.receptorRfc}) está en la lista de RFC cancelados que publica el SAT: no está inscrito como activo.`);
    }
  }
}

/** The findings of these rules for one CFDI 4.0, in code order. */
export function listFindings(f: ListFacts, lists: PublishedLists): CfdiFinding[] {
  const found = new Map<string, string>();
  check(f, lists, (code, message) => {
    if (!found.has(code)) found.set(code, message ?? explain(code));
  });
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([code, message]) => ({ code, message }));
}

/** `findings` with `more` added, one per code (a code already found keeps its first explanation), in code order. */
export function mergeFindings(findings: readonly CfdiFinding[], more: readonly CfdiFinding[]): CfdiFinding[] {
  if (more.length === 0) return [...findings];
  const byCode = new Map(findings.map((f) => [f.code, f]));
  for (const f of more) if (!byCode.has(f.code)) byCode.set(f.code, f);
  return [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

function factsOfModel(m: CfdiModel): ListFacts {
  return {
    fecha: attr(m.root, 'Fecha') ?? '',
    moneda: attr(m.root, 'Moneda') ?? '',
    tipoCambio: attr(m.root, 'TipoCambio') ?? '',
    confirmacion: attr(m.root, 'Confirmacion') ?? '',
    emisorRfc: attr(m.emisor, 'Rfc') ?? '',
    receptorRfc: attr(m.receptor, 'Rfc') ?? '',
  };
}

/** What these rules read of a CFDI 4.0 document (to look the data up before checkCfdi40); null when it is not one. */
export function listFactsOfXml(xml: string): ListFacts | null {
  try {
    const doc = parseLightXml(xml);
    const m = doc ? modelOf(doc) : null;
    return m ? factsOfModel(m) : null;
  } catch {
    return null;
  }
}

export const listRules: RuleModule = {
  codes: ['CFDI40118', 'CFDI40138', 'CFDI40143'],
  check(ctx: RuleContext) {
    if (ctx.lists) check(factsOfModel(ctx.m), ctx.lists, ctx.report);
  },
};
