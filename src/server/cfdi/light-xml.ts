// A light, read-only tree of SAT XML for the import's checks (verify-seals.ts): the cadena original
// (cadena.ts) and SAT's rules (rules/) walk only firstChild/nextSibling, nodeType, localName,
// namespaceURI, getAttribute(Node) and text data, so this tree gives exactly that, built from saxes'
// events. It is what lets both seals and the rules share one parse at a third of xmldom's cost
// (xmldom builds a full DOM and compiles a regular expression per end tag). Same safety rules as
// parseSatXml: size cap, no DOCTYPE or ENTITY at all, a leading BOM tolerated, any well-formedness or
// namespace error refused, and a depth cap (saxes' namespace handling is quadratic in depth).
// Text and CDATA are kept as nodes, as xmldom keeps them, since XSLT's built-in rules copy text;
// comments and processing instructions are dropped (neither the cadena nor the rules read them).
// The CFDI reader (read.ts) builds this tree from its own parse (LightTreeBuilder), so an imported
// file is parsed once for its facts, its seals and the rules.
import type { Document } from '@xmldom/xmldom';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { MAX_XML_CHARS } from './cadena';

/** Deeper than any CFDI with its complements and a generous Addenda (the reader's cap too). */
export const MAX_DEPTH = 64;

class LightNode {
  declare readonly ELEMENT_NODE: 1;
  declare readonly ATTRIBUTE_NODE: 2;
  declare readonly TEXT_NODE: 3;
  declare readonly CDATA_SECTION_NODE: 4;
  declare readonly PROCESSING_INSTRUCTION_NODE: 7;
  declare readonly COMMENT_NODE: 8;
  declare readonly DOCUMENT_NODE: 9;
  firstChild: LightNode | null = null;
  nextSibling: LightNode | null = null;
  constructor(readonly nodeType: number) {}
}
// The DOM's node type constants live on every node (cadena.ts compares with node.ELEMENT_NODE).
Object.assign(LightNode.prototype, {
  ELEMENT_NODE: 1,
  ATTRIBUTE_NODE: 2,
  TEXT_NODE: 3,
  CDATA_SECTION_NODE: 4,
  PROCESSING_INSTRUCTION_NODE: 7,
  COMMENT_NODE: 8,
  DOCUMENT_NODE: 9,
});

class LightAttr extends LightNode {
  constructor(
    readonly name: string,
    readonly value: string,
  ) {
    super(2);
  }
}

class LightText extends LightNode {
  constructor(
    readonly data: string,
    cdata: boolean,
  ) {
    super(cdata ? 4 : 3);
  }

  get nodeValue(): string {
    return this.data;
  }
}

class LightElement extends LightNode {
  lastChild: LightNode | null = null;
  constructor(
    readonly tagName: string,
    readonly localName: string,
    readonly namespaceURI: string | null,
    readonly prefix: string | null,
    /** saxes' own attribute record (no prototype, so no inherited names), kept as it is. */
    private readonly attrs: Readonly<Record<string, { readonly value: string }>>,
    readonly ownerDocument: LightDocument,
  ) {
    super(1);
  }

  /** An attribute node, made when asked for: most attributes of a CFDI are only ever read as values. */
  getAttributeNode(name: string): LightAttr | null {
    const a = this.attrs[name];
    return a ? new LightAttr(name, a.value) : null;
  }

  getAttribute(name: string): string | null {
    return this.attrs[name]?.value ?? null;
  }

  hasAttribute(name: string): boolean {
    return this.attrs[name] !== undefined;
  }

  append(child: LightNode): void {
    if (this.lastChild) this.lastChild.nextSibling = child;
    else this.firstChild = child;
    this.lastChild = child;
  }

  /** A copy of this element (and what it holds) as the root of a document of its own. */
  detached(): LightDocument {
    const doc = new LightDocument();
    doc.setRoot(this.copyInto(doc));
    return doc;
  }

  private copyInto(doc: LightDocument): LightElement {
    const el = new LightElement(this.tagName, this.localName, this.namespaceURI, this.prefix, this.attrs, doc);
    for (let c = this.firstChild; c; c = c.nextSibling) {
      if (c instanceof LightElement) el.append(c.copyInto(doc));
      else if (c instanceof LightText) el.append(new LightText(c.data, c.nodeType === 4));
    }
    return el;
  }
}

class LightDocument extends LightNode {
  documentElement: LightElement | null = null;
  constructor() {
    super(9);
  }

  setRoot(root: LightElement): void {
    this.documentElement = root;
    this.firstChild = root;
  }
}

/**
 * Builds the light tree from a saxes parser's events (namespaces on). parseLightXml feeds it; the CFDI
 * reader (read.ts) feeds it from its own parse, so an import reads each file once.
 */
export class LightTreeBuilder {
  private readonly doc = new LightDocument();
  private readonly stack: LightElement[] = [];

  open(tag: SaxesTagNS): void {
    const el = new LightElement(tag.name, tag.local, tag.uri === '' ? null : tag.uri, tag.prefix === '' ? null : tag.prefix, tag.attributes, this.doc);
    const parent = this.stack[this.stack.length - 1];
    if (parent) parent.append(el);
    else this.doc.setRoot(el);
    this.stack.push(el);
  }

  close(): void {
    this.stack.pop();
  }

  text(t: string): void {
    this.stack[this.stack.length - 1]?.append(new LightText(t, false));
  }

  cdata(t: string): void {
    this.stack[this.stack.length - 1]?.append(new LightText(t, true));
  }

  get depth(): number {
    return this.stack.length;
  }

  /** The tree, typed as the xmldom Document that cadena.ts and the rules take; null before any element. */
  document(): Document | null {
    return this.doc.documentElement ? (this.doc as unknown as Document) : null;
  }
}

/**
 * Parses SAT XML into the light tree, typed as the xmldom Document that cadena.ts and the rules take.
 * Returns null for anything that is not well-formed, namespace-correct XML within the limits.
 */
export function parseLightXml(xml: string): Document | null {
  if (xml.length > MAX_XML_CHARS) return null;
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return null;
  const tree = new LightTreeBuilder();
  const parser = new SaxesParser({ xmlns: true, position: false });
  let failed = false;
  parser.on('error', () => {
    failed = true;
    throw new Error('malformed');
  });
  parser.on('doctype', () => {
    failed = true;
    throw new Error('doctype');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (tree.depth >= MAX_DEPTH) {
      failed = true;
      throw new Error('too deep');
    }
    tree.open(tag);
  });
  parser.on('closetag', () => tree.close());
  parser.on('text', (t: string) => tree.text(t));
  parser.on('cdata', (t: string) => tree.cdata(t));
  try {
    parser.write(text).close();
  } catch {
    return null;
  }
  return failed ? null : tree.document();
}

/**
 * An element of a light tree as the root of a document of its own (how SAT applies the TFD stylesheet
 * to the timbre inside a CFDI); null when it is not one of ours (an xmldom element).
 */
export function detachedLight(el: unknown): Document | null {
  return el instanceof LightElement ? (el.detached() as unknown as Document) : null;
}
