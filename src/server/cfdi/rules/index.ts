// SAT's CFDI 4.0 rules ("Matriz de errores CFDI 4.0", codes CFDI40101…CFDI40999) checked offline
// over one CFDI 4.0: the one home for them, used before stamping the invoices we issue and on every
// imported CFDI. Parses once (safely: no DTD, size cap, depth cap — ../light-xml.ts, saxes into a
// light read-only tree, several times cheaper than xmldom's DOM), walks the tree once into a model, then each rule module reads that model, so the cost is linear in the document. Never
// throws: a document that is not a CFDI 4.0 (or not XML at all) gets no findings, since the matrix
// says nothing about it. Rules that need published data (the day's exchange rate, SAT's cancelled RFCs)
// run when the caller hands that data in (options.lists, published-lists.ts); the rest of SAT's online
// lists are not here (see README).
import type { Document } from '@xmldom/xmldom';
import type { CfdiFinding } from '../../../domain/ticket';
import { parseLightXml } from '../light-xml';
import { MONEDA_DECIMALS } from './catalogs';
import { comprobanteRules } from './comprobante';
import { conceptosRules } from './conceptos';
import type { RuleContext, RuleModule } from './context';
import { impuestosRules } from './impuestos';
import { explain } from './messages';
import { attr, modelOf } from './model';
import { partiesRules } from './parties';
import { listRules, type PublishedLists } from './published-lists';
import { sealRules } from './seal-rules';

export type { CfdiFinding } from '../../../domain/ticket';
export type { ListFacts, PublishedLists } from './published-lists';
export { listFactsOfXml, listFindings, mergeFindings } from './published-lists';

const MODULES: readonly RuleModule[] = [comprobanteRules, partiesRules, conceptosRules, impuestosRules, sealRules, listRules];

/** The matrix codes this engine checks, in code order. */
export const CFDI40_RULES_IMPLEMENTED: readonly string[] = Object.freeze([...new Set(MODULES.flatMap((r) => r.codes))].sort());

const decoder = new TextDecoder('utf-8');

export interface CheckOptions {
  /** The instant to judge the Fecha against (the clock when absent). */
  now?: Date;
  /**
   * The document is about to be stamped: a Fecha more than 72 h old is a finding too (a PAC refuses it).
   * Off for a CFDI judged after the fact (an import), whose Fecha is as old as it is.
   */
  beforeStamping?: boolean;
  /** Skip the Sello/Certificado check (CFDI40102/40106): for callers that verify the seal themselves. */
  skipSeal?: boolean;
  /** Published data looked up beforehand (exchange rates, SAT's cancelled RFCs) for CFDI40118, CFDI40138 and CFDI40143. */
  lists?: PublishedLists;
}

/**
 * SAT's CFDI 4.0 findings of a document, one per rule broken, in code order. A document already parsed
 * (parseLightXml or parseSatXml: the import's seal check parses it) is taken as is, so it is parsed once.
 */
export function checkCfdi40(xml: string | Uint8Array | Document, options: CheckOptions = {}): CfdiFinding[] {
  let model;
  try {
    const doc = typeof xml === 'string' ? parseLightXml(xml) : xml instanceof Uint8Array ? parseLightXml(decoder.decode(xml)) : xml;
    model = doc ? modelOf(doc) : null;
  } catch {
    return [];
  }
  if (!model) return [];
  const found = new Map<string, string>();
  const ctx: RuleContext = {
    m: model,
    now: options.now ?? new Date(),
    tipo: attr(model.root, 'TipoDeComprobante') ?? '',
    decimals: MONEDA_DECIMALS.get(attr(model.root, 'Moneda') ?? ''),
    beforeStamping: options.beforeStamping === true,
    lists: options.lists,
    report(code, message) {
      if (!found.has(code)) found.set(code, message ?? explain(code));
    },
  };
  for (const rules of MODULES) {
    if (options.skipSeal && rules === sealRules) continue;
    try {
      rules.check(ctx);
    } catch {
      // A rule tripping over hostile input must not hide the others' findings.
    }
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([code, message]) => ({ code, message }));
}
