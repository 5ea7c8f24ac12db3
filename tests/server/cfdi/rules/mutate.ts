// Test helper: a fixture CFDI with one thing changed. Parses with xmldom, lets a case edit the
// tree through a few helpers (elements by their cfdi name, set/delete an attribute, add a child or
// a complement), and serialises it back, so every failing fixture is "a valid CFDI but for this".
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DOMParser, XMLSerializer, type Document, type Element } from '@xmldom/xmldom';

const CFDI = 'http://www.sat.gob.mx/cfd/4';
export const CCE20 = 'http://www.sat.gob.mx/ComercioExterior20';

export function fixture(name: string): string {
  return readFileSync(fileURLToPath(new URL(`../../../fixtures/cfdi/${name}`, import.meta.url)), 'utf8');
}

export class Doc {
  constructor(readonly doc: Document) {}

  get root(): Element {
    return this.doc.documentElement!;
  }

  /** The index-th element with that local name in the cfdi namespace, in document order. */
  el(local: string, index = 0): Element {
    const all = this.doc.getElementsByTagNameNS(CFDI, local);
    const found = all.item(index);
    if (!found) throw new Error(`no cfdi:${local}[${index}]`);
    return found;
  }

  /** Sets attributes on an element (a name → value map; undefined deletes). */
  set(target: Element | string, attrs: Record<string, string | undefined>): this {
    const el = typeof target === 'string' ? this.el(target) : target;
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined) el.removeAttribute(k);
      else el.setAttribute(k, v);
    }
    return this;
  }

  remove(target: Element | string): this {
    const el = typeof target === 'string' ? this.el(target) : target;
    el.parentNode!.removeChild(el);
    return this;
  }

  /** Adds a cfdi:<local> child (first or last) with those attributes, and returns it. */
  add(parent: Element | string, local: string, attrs: Record<string, string> = {}, first = false): Element {
    const p = typeof parent === 'string' ? this.el(parent) : parent;
    const el = this.doc.createElementNS(CFDI, `cfdi:${local}`);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (first && p.firstChild) p.insertBefore(el, p.firstChild);
    else p.appendChild(el);
    return el;
  }

  /** Appends a copy of an element right after it. */
  duplicate(target: Element | string): this {
    const el = typeof target === 'string' ? this.el(target) : target;
    el.parentNode!.insertBefore(el.cloneNode(true), el.nextSibling);
    return this;
  }

  /** Adds an element of another namespace inside cfdi:Complemento (made if missing). */
  complement(ns: string, qname: string, attrs: Record<string, string> = {}): this {
    let comp = this.doc.getElementsByTagNameNS(CFDI, 'Complemento').item(0);
    if (!comp) comp = this.add(this.root, 'Complemento');
    const el = this.doc.createElementNS(ns, qname);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    comp.appendChild(el);
    return this;
  }

  /** Drops the TimbreFiscalDigital (and an empty Complemento): the CFDI as it was before stamping. */
  unstamp(): this {
    const tfd = this.doc.getElementsByTagNameNS('http://www.sat.gob.mx/TimbreFiscalDigital', 'TimbreFiscalDigital').item(0);
    if (tfd) {
      const comp = tfd.parentNode as Element;
      comp.removeChild(tfd);
      if (!comp.getElementsByTagNameNS('*', '*').length) comp.parentNode!.removeChild(comp);
    }
    return this;
  }

  toString(): string {
    return new XMLSerializer().serializeToString(this.doc);
  }
}

export function mutate(xml: string, edit: (d: Doc) => unknown): string {
  const d = new Doc(new DOMParser().parseFromString(xml, 'text/xml'));
  edit(d);
  return d.toString();
}
