// One walk over a parsed CFDI 4.0 collecting what the rules look at (emisor, receptor, conceptos with
// their taxes, the comprobante's taxes, complements), so each rule reads lists instead of searching
// the tree again: the whole check stays linear in the document's size.
import type { Document, Element } from '@xmldom/xmldom';
import { NS_CFDI40 } from '../cadena';

export const NS_CCE = new Set(['http://www.sat.gob.mx/ComercioExterior20', 'http://www.sat.gob.mx/ComercioExterior11', 'http://www.sat.gob.mx/ComercioExterior']);
export const NS_IMPLOCAL = 'http://www.sat.gob.mx/implocal';

export interface Taxes {
  /** The Impuestos element itself. */
  node: Element;
  trasladosNode?: Element;
  retencionesNode?: Element;
  traslados: Element[];
  retenciones: Element[];
}

export interface Parte {
  el: Element;
  aduana: Element[];
}

export interface Concepto {
  el: Element;
  impuestos?: Taxes;
  terceros?: Element;
  aduana: Element[];
  partes: Parte[];
}

export interface CfdiModel {
  doc: Document;
  root: Element;
  informacionGlobal?: Element;
  relacionados: Element[];
  emisor?: Element;
  receptor?: Element;
  conceptos: Concepto[];
  impuestos?: Taxes;
  complementos: Element[];
  hasCce: boolean;
  implocal?: Element;
}

export function children(el: Element, local?: string): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    const e = c as Element;
    if (local === undefined || (e.localName === local && e.namespaceURI === NS_CFDI40)) out.push(e);
  }
  return out;
}

function first(el: Element, local: string): Element | undefined {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType === 1 && (c as Element).localName === local && (c as Element).namespaceURI === NS_CFDI40) return c as Element;
  }
  return undefined;
}

function taxesOf(node: Element): Taxes {
  const trasladosNode = first(node, 'Traslados');
  const retencionesNode = first(node, 'Retenciones');
  return {
    node,
    trasladosNode,
    retencionesNode,
    traslados: trasladosNode ? children(trasladosNode, 'Traslado') : [],
    retenciones: retencionesNode ? children(retencionesNode, 'Retencion') : [],
  };
}

/** The model of a CFDI 4.0 document, or null when the root is not a CFDI 4.0 Comprobante. */
export function modelOf(doc: Document): CfdiModel | null {
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== NS_CFDI40 || root.localName !== 'Comprobante' || root.getAttribute('Version') !== '4.0') return null;
  const m: CfdiModel = { doc, root, relacionados: [], conceptos: [], complementos: [], hasCce: false };
  for (const el of children(root)) {
    if (el.namespaceURI !== NS_CFDI40) continue;
    switch (el.localName) {
      case 'InformacionGlobal': m.informacionGlobal ??= el; break;
      case 'CfdiRelacionados': m.relacionados.push(el); break;
      case 'Emisor': m.emisor ??= el; break;
      case 'Receptor': m.receptor ??= el; break;
      case 'Conceptos':
        for (const c of children(el, 'Concepto')) {
          const imp = first(c, 'Impuestos');
          m.conceptos.push({
            el: c,
            impuestos: imp ? taxesOf(imp) : undefined,
            terceros: first(c, 'ACuentaTerceros'),
            aduana: children(c, 'InformacionAduanera'),
            partes: children(c, 'Parte').map((p) => ({ el: p, aduana: children(p, 'InformacionAduanera') })),
          });
        }
        break;
      case 'Impuestos': m.impuestos ??= taxesOf(el); break;
      case 'Complemento':
        for (const comp of children(el)) {
          m.complementos.push(comp);
          if (comp.localName === 'ComercioExterior' && NS_CCE.has(comp.namespaceURI ?? '')) m.hasCce = true;
          if (comp.localName === 'ImpuestosLocales' && comp.namespaceURI === NS_IMPLOCAL) m.implocal ??= comp;
        }
        break;
    }
  }
  return m;
}

/** An attribute's value, or undefined when absent (xmldom answers '' for a missing attribute). */
export function attr(el: Element | undefined, name: string): string | undefined {
  if (!el) return undefined;
  const node = el.getAttributeNode(name);
  return node ? node.value : undefined;
}
