// Auto-fill of the tax-data pane from a previously issued CFDI (spec §2 Register): read the
// cfdi:Receptor of a parsed document. Parsing happens in the browser (DOMParser); DTDs are refused
// before parsing, so no entity can expand.
import { normalizeRfc, personTypeOf } from '../../domain/rfc';
import { MSG } from '../../domain/messages';
import type { TaxDraft } from './tax-draft';

export const CFDI_MAX_BYTES = 1024 * 1024;

export const CFDI_MSG = {
  notXml: 'Elige un archivo .xml de una factura (CFDI).',
  tooBig: 'El archivo es demasiado grande: el máximo es 1 MB.',
  unsafe: 'Este archivo no es una factura CFDI válida. Revisa que sea el XML que te enviaron.',
  noReceptor: 'No encontramos los datos del receptor en este archivo. Revisa que sea el XML de una factura (CFDI).',
} as const;

export interface Receptor {
  rfc: string;
  nombre: string;
  residenciaFiscal: string;
  numRegIdTrib: string;
  /** CFDI 4.0 only ('' in 3.3). */
  domicilioFiscal: string;
  regimenFiscal: string;
}

/** The parts of a DOM Document we use (a browser Document satisfies it; tests pass a small fake). */
export interface XmlElementLike {
  namespaceURI: string | null;
  getAttribute(name: string): string | null;
}
export interface XmlDocumentLike {
  getElementsByTagNameNS(ns: string, localName: string): ArrayLike<XmlElementLike>;
  getElementsByTagName(name: string): ArrayLike<unknown>;
}

/** Checks the file before reading it: name, size. Returns a Spanish message or null. */
export function checkCfdiFile(file: { name: string; size: number }): string | null {
  if (!/\.xml$/i.test(file.name)) return CFDI_MSG.notXml;
  if (file.size > CFDI_MAX_BYTES) return CFDI_MSG.tooBig;
  return null;
}

/** Refuses document type declarations and entities (billion laughs, external entities). */
export function checkCfdiText(text: string): string | null {
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) return CFDI_MSG.unsafe;
  return null;
}

const CFDI_NS = /^http:\/\/www\.sat\.gob\.mx\/cfd\/[34]$/;

export function readReceptor(doc: XmlDocumentLike): Receptor | null {
  if (doc.getElementsByTagName('parsererror').length > 0) return null;
  const all = doc.getElementsByTagNameNS('*', 'Receptor');
  for (let i = 0; i < all.length; i++) {
    const el = all[i]!;
    if (!el.namespaceURI || !CFDI_NS.test(el.namespaceURI)) continue; // nómina and other complements have their own Receptor
    const rfc = el.getAttribute('Rfc') ?? el.getAttribute('rfc') ?? '';
    if (!rfc) continue;
    return {
      rfc: normalizeRfc(rfc),
      nombre: (el.getAttribute('Nombre') ?? el.getAttribute('nombre') ?? '').trim().replace(/\s+/g, ' '),
      residenciaFiscal: (el.getAttribute('ResidenciaFiscal') ?? '').trim().toUpperCase(),
      numRegIdTrib: (el.getAttribute('NumRegIdTrib') ?? '').trim(),
      domicilioFiscal: (el.getAttribute('DomicilioFiscalReceptor') ?? '').trim(),
      regimenFiscal: (el.getAttribute('RegimenFiscalReceptor') ?? '').trim(),
    };
  }
  return null;
}

/** Persona names: Nombre = all but the last two words, Apellidos = the last two. */
export function splitPersonName(full: string): { firstName: string; lastName: string } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { firstName: '', lastName: '' };
  if (words.length <= 2) return { firstName: words[0]!, lastName: words.slice(1).join(' ') };
  return { firstName: words.slice(0, -2).join(' '), lastName: words.slice(-2).join(' ') };
}

/** The draft after importing a receptor: the tab follows the RFC's shape; other typed fields stay. */
export function draftFromReceptor(r: Receptor, current: TaxDraft): { draft: TaxDraft } | { error: string } {
  const type = personTypeOf(r.rfc);
  if (!type) return { error: MSG.rfcInvalid };
  // A foreign receiver's DomicilioFiscalReceptor is the issuer's postal code: never take it.
  if (type !== 'extranjero') {
    current = { ...current, postalCode: r.domicilioFiscal || current.postalCode, taxRegime: r.regimenFiscal || current.taxRegime };
  }
  switch (type) {
    case 'empresa':
      return { draft: { ...current, type, rfc: r.rfc, name: r.nombre || current.name } };
    case 'persona': {
      const { firstName, lastName } = splitPersonName(r.nombre);
      return { draft: { ...current, type, rfc: r.rfc, firstName: firstName || current.firstName, lastName: lastName || current.lastName } };
    }
    case 'extranjero':
      return {
        draft: {
          ...current,
          type,
          name: r.nombre || current.name,
          country: r.residenciaFiscal || current.country,
          taxId: r.numRegIdTrib || current.taxId,
        },
      };
  }
}
