// The cadena original: the string a CFDI's Sello (and a timbre's SelloSAT) signs. SAT defines it
// as the output of its XSLT stylesheets (cadenaoriginal_4_0.xslt, _3_3, TFD 1.1 …). We run no XSLT
// engine: cadena-table.ts is those stylesheets compiled by tests/tools/make-cadena-table.ts, and
// this file interprets that table with XSLT 1.0's rules (built-in templates included). The
// stylesheet stays the oracle: the tests compare our output with xsltproc's on every fixture.
import { DOMImplementation, DOMParser, type Document, type Element, type Node } from '@xmldom/xmldom';
import { CADENA_TABLE } from './cadena-table';

export const NS_CFDI40 = 'http://www.sat.gob.mx/cfd/4';
export const NS_CFDI3 = 'http://www.sat.gob.mx/cfd/3';
export const NS_TFD = 'http://www.sat.gob.mx/TimbreFiscalDigital';
export const NS_RET20 = 'http://www.sat.gob.mx/esquemas/retencionpago/2';

/** Larger than any real CFDI (a big Carta Porte is a few MB); refuses absurd input before parsing. */
export const MAX_XML_CHARS = 20_000_000;

export type StylesheetId = 'cfdi40' | 'cfdi33' | 'tfd11' | 'tfd10' | 'ret20';

/** One compiled XSLT instruction; see the legend at the top of cadena-table.ts. */
export type Instruction =
  | readonly ['t', string]
  | readonly ['r' | 'o' | 'a', string]
  | readonly ['f' | 'i', string, readonly Instruction[]]
  | readonly ['i=', string, string, readonly Instruction[]];

export interface CadenaTable {
  namespaces: Readonly<Record<string, string>>;
  stylesheets: Readonly<Record<StylesheetId, { source: string; root: readonly Instruction[]; groups: readonly string[] }>>;
  groups: Readonly<Record<string, Readonly<Record<string, readonly Instruction[]>>>>;
}

export type CfdiXmlProblem = 'doctype' | 'too-large' | 'malformed' | 'unsupported';

export class CfdiXmlError extends Error {
  constructor(readonly problem: CfdiXmlProblem, message: string) {
    super(message);
    this.name = 'CfdiXmlError';
  }
}

/**
 * Parses SAT XML safely: no DTD at all (so no entity expansion, no external fetches), a size cap,
 * a leading BOM tolerated, and any well-formedness error refused.
 */
export function parseSatXml(xml: string): Document {
  if (xml.length > MAX_XML_CHARS) throw new CfdiXmlError('too-large', 'XML too large');
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new CfdiXmlError('doctype', 'XML with a DOCTYPE or ENTITY is refused');
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new CfdiXmlError('malformed', message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (e) {
    throw e instanceof CfdiXmlError ? e : new CfdiXmlError('malformed', e instanceof Error ? e.message : String(e));
  }
  if (!doc.documentElement) throw new CfdiXmlError('malformed', 'XML without a root element');
  return doc;
}

/** Which SAT stylesheet defines the cadena of this root element. */
export function stylesheetFor(root: Element): StylesheetId {
  const ns = root.namespaceURI;
  if (ns === NS_CFDI40 && root.localName === 'Comprobante') return 'cfdi40';
  if (ns === NS_CFDI3 && root.localName === 'Comprobante' && root.getAttribute('Version') === '3.3') return 'cfdi33';
  if (ns === NS_TFD && root.localName === 'TimbreFiscalDigital') {
    if (root.getAttribute('Version') === '1.1') return 'tfd11';
    if (root.getAttribute('version') === '1.0') return 'tfd10';
  }
  if (ns === NS_RET20 && root.localName === 'Retenciones') return 'ret20';
  throw new CfdiXmlError('unsupported', `no cadena original for ${root.tagName} (${ns ?? 'no namespace'})`);
}

/**
 * The cadena original of a CFDI 4.0/3.3, a TimbreFiscalDigital 1.1/1.0 or a Retenciones 2.0.
 * An element that is not its document's root (e.g. the timbre inside a stamped CFDI) is treated
 * as the root of a document of its own, which is how SAT applies the TFD stylesheet.
 */
export function cadenaOriginal(source: string | Document | Element, stylesheet?: StylesheetId): string {
  const doc = asDocument(source);
  const root = doc.documentElement;
  if (!root) throw new CfdiXmlError('malformed', 'XML without a root element');
  return new Run(doc, stylesheet ?? stylesheetFor(root)).output();
}

/** The first TimbreFiscalDigital 1.1 in a stamped CFDI's Complemento, if any. */
export function findTimbre(source: Document | Element): Element | undefined {
  const root = 'documentElement' in source ? source.documentElement : source;
  if (!root) return undefined;
  for (const complemento of childElements(root)) {
    if (complemento.localName !== 'Complemento' || complemento.namespaceURI !== root.namespaceURI) continue;
    for (const el of childElements(complemento)) {
      if (el.namespaceURI === NS_TFD && el.localName === 'TimbreFiscalDigital' && el.getAttribute('Version') === '1.1') return el;
    }
  }
  return undefined;
}

function asDocument(source: string | Document | Element): Document {
  if (typeof source === 'string') return parseSatXml(source);
  if ('documentElement' in source) return source;
  if (source.ownerDocument?.documentElement === source) return source.ownerDocument;
  const doc = new DOMImplementation().createDocument(null, '');
  doc.appendChild(doc.importNode(source, true));
  return doc;
}

// ---- the interpreter -------------------------------------------------------------------------

type Step =
  | { kind: 'self' }
  | { kind: 'child' | 'descendant'; ns: string | null; local: string | null } // null = "*"
  | { kind: 'attribute'; name: string };

interface Path { absolute: boolean; steps: Step[] }

const paths = new Map<string, Path>();
const templateMaps = new Map<StylesheetId, Map<string, readonly Instruction[]>>();

/** Parses the table's path syntax: ".", "*", "p:Name", "@Name", a leading "/" and "//". */
function compilePath(source: string): Path {
  const cached = paths.get(source);
  if (cached) return cached;
  const tokens = source.split('/');
  const absolute = tokens[0] === '' && tokens.length > 1;
  const steps: Step[] = [];
  let descendant = false;
  for (const token of absolute ? tokens.slice(1) : tokens) {
    if (token === '') { descendant = true; continue; }
    if (token === '.') steps.push({ kind: 'self' });
    else if (token.startsWith('@')) steps.push({ kind: 'attribute', name: token.slice(1) });
    else if (token === '*') steps.push({ kind: descendant ? 'descendant' : 'child', ns: null, local: null });
    else {
      const [prefix, local] = token.split(':') as [string, string];
      const ns = CADENA_TABLE.namespaces[prefix];
      if (ns === undefined) throw new Error(`cadena table: unknown prefix ${prefix}`);
      steps.push({ kind: descendant ? 'descendant' : 'child', ns, local });
    }
    descendant = false;
  }
  const path = { absolute, steps };
  paths.set(source, path);
  return path;
}

/** Element name → template, merged in stylesheet order (a later file's template wins, as in XSLT). */
function templatesOf(id: StylesheetId): Map<string, readonly Instruction[]> {
  let map = templateMaps.get(id);
  if (map) return map;
  map = new Map();
  for (const group of CADENA_TABLE.stylesheets[id].groups) {
    for (const [match, body] of Object.entries(CADENA_TABLE.groups[group] ?? {})) {
      const [prefix, local] = match.split(':') as [string, string];
      map.set(`${CADENA_TABLE.namespaces[prefix]} ${local}`, body);
    }
  }
  templateMaps.set(id, map);
  return map;
}

class Run {
  private readonly out: string[] = [];
  private readonly templates: Map<string, readonly Instruction[]>;

  constructor(private readonly doc: Document, private readonly id: StylesheetId) {
    this.templates = templatesOf(id);
  }

  output(): string {
    this.run(CADENA_TABLE.stylesheets[this.id].root, this.doc);
    return this.out.join('');
  }

  private run(body: readonly Instruction[], ctx: Node): void {
    for (const ins of body) {
      switch (ins[0]) {
        case 't': this.out.push(ins[1]); break;
        case 'r': this.out.push('|', normalizeSpace(stringValue(this.select(ctx, ins[1])[0]))); break;
        case 'o': {
          const first = this.select(ctx, ins[1])[0];
          if (first) this.out.push('|', normalizeSpace(stringValue(first)));
          break;
        }
        case 'a': for (const n of this.select(ctx, ins[1])) this.apply(n); break;
        case 'f': for (const n of this.select(ctx, ins[1])) this.run(ins[2], n); break;
        case 'i': if (this.select(ctx, ins[1]).length > 0) this.run(ins[2], ctx); break;
        case 'i=': if (this.select(ctx, ins[1]).some((n) => stringValue(n) === ins[2])) this.run(ins[3], ctx); break;
      }
    }
  }

  /** apply-templates on one node: its template, or XSLT's built-in rules (recurse; copy text). */
  private apply(node: Node): void {
    if (node.nodeType === node.ELEMENT_NODE) {
      const el = node as Element;
      const template = this.templates.get(`${el.namespaceURI} ${el.localName}`);
      if (template) this.run(template, el);
      else for (let c = el.firstChild; c; c = c.nextSibling) this.apply(c);
    } else if (node.nodeType === node.TEXT_NODE || node.nodeType === node.CDATA_SECTION_NODE) {
      this.out.push((node as unknown as { data: string }).data);
    } else if (node.nodeType === node.ATTRIBUTE_NODE) {
      this.out.push((node as unknown as { value: string }).value);
    }
  }

  /** The nodes a path selects, in document order. */
  private select(ctx: Node, source: string): Node[] {
    const path = compilePath(source);
    let set: Node[] = [path.absolute ? this.doc : ctx];
    for (const step of path.steps) {
      const next: Node[] = [];
      for (const n of set) {
        if (step.kind === 'self') next.push(n);
        else if (step.kind === 'attribute') {
          if (n.nodeType === n.ELEMENT_NODE) {
            const a = (n as Element).getAttributeNode(step.name);
            if (a) next.push(a);
          }
        } else if (step.kind === 'child') {
          for (let c = n.firstChild; c; c = c.nextSibling) if (matches(c, step.ns, step.local)) next.push(c);
        } else {
          collectDescendants(n, step.ns, step.local, next);
        }
      }
      set = next;
    }
    return set;
  }
}

function matches(n: Node, ns: string | null, local: string | null): boolean {
  if (n.nodeType !== n.ELEMENT_NODE) return false;
  const el = n as Element;
  return local === null || (el.localName === local && el.namespaceURI === ns);
}

function collectDescendants(n: Node, ns: string | null, local: string | null, into: Node[]): void {
  for (let c = n.firstChild; c; c = c.nextSibling) {
    if (matches(c, ns, local)) into.push(c);
    collectDescendants(c, ns, local, into);
  }
}

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === c.ELEMENT_NODE) out.push(c as Element);
  return out;
}

/** XPath string(): an attribute's value, or the concatenated text inside an element. */
function stringValue(n: Node | undefined): string {
  if (!n) return '';
  if (n.nodeType === n.ATTRIBUTE_NODE) return (n as unknown as { value: string }).value;
  if (n.nodeType === n.TEXT_NODE || n.nodeType === n.CDATA_SECTION_NODE) return (n as unknown as { data: string }).data;
  let s = '';
  for (let c = n.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== c.COMMENT_NODE && c.nodeType !== c.PROCESSING_INSTRUCTION_NODE) s += stringValue(c);
  }
  return s;
}

/** XPath normalize-space(): only space, tab, CR and LF count as white space (not NBSP). */
export function normalizeSpace(s: string): string {
  return s.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '');
}
