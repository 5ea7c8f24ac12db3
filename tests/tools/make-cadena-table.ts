// Compiles SAT's cadena-original stylesheets (the oracle, tests/fixtures/sat-xml) into the
// table that src/server/cfdi/cadena.ts interprets, so the cadena follows SAT's own XSLT instead of a
// hand-copied order. SAT's stylesheets use a tiny XSLT subset: templates matching one element name,
// call-template Requerido/Opcional (utilerias.xslt) with a path, apply-templates, for-each, if, and
// literal "|" text. Anything else makes this script fail, so a new SAT construct is never skipped
// silently.
// Run: npx tsx tests/tools/make-cadena-table.ts   (writes src/server/cfdi/cadena-table.ts; commit it)
// The cadena test runs makeCadenaTable() and checks the committed file is up to date.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';

const XSL = 'http://www.w3.org/1999/XSL/Transform';
const SAT_URL = 'http://www.sat.gob.mx/';
const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '../..');
export const SAT_XML = resolve(REPO_ROOT, 'tests/fixtures/sat-xml/www.sat.gob.mx');
export const TABLE_FILE = resolve(REPO_ROOT, 'src/server/cfdi/cadena-table.ts');

/** The stylesheets we compile, by the id cadena.ts uses (paths under www.sat.gob.mx/). */
export const ROOTS = {
  cfdi40: 'sitio_internet/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt',
  cfdi33: 'sitio_internet/cfd/3/cadenaoriginal_3_3/cadenaoriginal_3_3.xslt',
  tfd11: 'sitio_internet/cfd/TimbreFiscalDigital/cadenaoriginal_TFD_1_1.xslt',
  tfd10: 'sitio_internet/timbrefiscaldigital/cadenaoriginal_TFD_1_0.xslt',
  ret20: 'esquemas/retencionpago/2/retenciones.xslt',
} as const;

type Instr = readonly unknown[];

interface Group {
  file: string;
  templates: Map<string, Instr[]>;
}

class Compiler {
  /** Canonical prefix → namespace URI, shared by every stylesheet in the table. */
  readonly prefixes = new Map<string, string>();
  private readonly byUri = new Map<string, string>();
  readonly groups = new Map<string, Group>();

  prefixFor(uri: string, wanted: string): string {
    const known = this.byUri.get(uri);
    if (known) return known;
    // Same prefix, other namespace (cfdi for cfd/3 and cfd/4): suffix the URI's last segment.
    let p = this.prefixes.has(wanted) ? `${wanted}${uri.split('/').pop()?.replace(/\W/g, '') ?? ''}` : wanted;
    for (let n = 2; this.prefixes.has(p); n++) p = `${wanted}${n}`;
    this.prefixes.set(p, uri);
    this.byUri.set(uri, p);
    return p;
  }

  /** Compiles one stylesheet: its include tree in order (later files win), plus its "/" template. */
  compileRoot(path: string): { root: Instr[]; groups: string[] } {
    const order: string[] = [];
    let root: Instr[] | undefined;
    const visit = (file: string) => {
      const sheet = load(file);
      let group = this.groups.get(file);
      const fresh = !group;
      group ??= { file, templates: new Map() };
      for (const child of elements(sheet)) {
        if (child.namespaceURI !== XSL) throw fail(file, child, 'top-level element outside XSLT');
        switch (child.localName) {
          case 'include': visit(resolveHref(file, attr(child, 'href'))); break;
          case 'output': break;
          case 'template': {
            const name = child.getAttribute('name');
            if (name !== null) { checkUtility(file, child, name); break; }
            const match = attr(child, 'match').trim();
            const body = this.body(file, child);
            // "/" in an included complement (vehiculousado) loses to the main stylesheet's, which
            // comes later in tree order: same-priority conflicts go to the last template (XSLT 1.0 §5.5).
            if (match === '/') { root = body; break; }
            if (fresh) group.templates.set(this.qname(file, child, match), body);
            break;
          }
          default: throw fail(file, child, `unsupported top-level xsl:${child.localName}`);
        }
      }
      if (fresh) this.groups.set(file, group);
      if (group.templates.size > 0 && !order.includes(file)) order.push(file);
    };
    visit(path);
    if (!root) throw new Error(`${path}: no template for "/"`);
    return { root, groups: order };
  }

  private body(file: string, parent: Element): Instr[] {
    const out: Instr[] = [];
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === n.COMMENT_NODE) continue;
      if (n.nodeType === n.TEXT_NODE) {
        // Whitespace-only text in a stylesheet is stripped (XSLT 1.0 §3.4); other text is output as is.
        const text = (n as unknown as { data: string }).data;
        if (text.trim() !== '') out.push(['t', text]);
        continue;
      }
      if (n.nodeType !== n.ELEMENT_NODE) throw fail(file, parent, `unexpected node type ${n.nodeType}`);
      const el = n as Element;
      if (el.namespaceURI !== XSL) throw fail(file, el, 'literal result elements are not supported');
      switch (el.localName) {
        case 'param': break; // only in the utility templates, checked by checkUtility
        case 'call-template': out.push(this.call(file, el)); break;
        case 'apply-templates':
          if (elements(el).length > 0 || el.getAttribute('mode') !== null) throw fail(file, el, 'apply-templates with mode/sort/params');
          out.push(['a', this.path(file, el, attr(el, 'select'))]);
          break;
        case 'for-each': out.push(['f', this.path(file, el, attr(el, 'select')), this.body(file, el)]); break;
        case 'if': out.push(this.test(file, el)); break;
        default: throw fail(file, el, `unsupported xsl:${el.localName}`);
      }
    }
    return out;
  }

  private call(file: string, el: Element): Instr {
    const name = attr(el, 'name');
    const params = elements(el);
    const p = params[0];
    if ((name !== 'Requerido' && name !== 'Opcional') || params.length !== 1 || !p
      || p.localName !== 'with-param' || attr(p, 'name') !== 'valor') {
      throw fail(file, el, `unsupported call-template ${name}`);
    }
    return [name === 'Requerido' ? 'r' : 'o', this.path(file, p, attr(p, 'select'))];
  }

  private test(file: string, el: Element): Instr {
    const t = attr(el, 'test').trim();
    const eq = /^(.+?)\s*=\s*'([^']*)'$/.exec(t);
    if (eq) return ['i=', this.path(file, el, eq[1]!), eq[2]!, this.body(file, el)];
    return ['i', this.path(file, el, t), this.body(file, el)];
  }


  /**
   * Rewrites an XPath location path of the subset SAT uses into canonical prefixes:
   * ".", "*", "p:Name", "@Name", "/" (absolute) and "//" (descendants). A leading "./" is dropped.
   */
  private path(file: string, el: Element, raw: string): string {
    let p = raw.trim();
    if (p !== '.' && p.startsWith('./') && !p.startsWith('.//')) p = p.slice(2);
    const parts = p.split('/').map((step, i, all) => {
      if (step === '') {
        if (i === 0 || (i < all.length - 1 && all[i + 1] !== '')) return '';
        throw fail(file, el, `unsupported path ${raw}`);
      }
      if (step === '.' || step === '*') return step;
      const at = /^@([\p{L}_][\p{L}\p{N}_.-]*)$/u.exec(step);
      if (at) {
        if (i !== all.length - 1) throw fail(file, el, `attribute step in the middle of ${raw}`);
        return step;
      }
      if (/^[\p{L}_][\p{L}\p{N}_.-]*:[\p{L}_][\p{L}\p{N}_.-]*$/u.test(step)) return this.qname(file, el, step);
      throw fail(file, el, `unsupported path step "${step}" in ${raw}`);
    });
    return parts.join('/');
  }

  private qname(file: string, el: Element, qn: string): string {
    const [prefix, local] = qn.split(':') as [string, string | undefined];
    if (!local) throw fail(file, el, `unprefixed name ${qn}: SAT stylesheets always use prefixes`);
    const uri = el.lookupNamespaceURI(prefix);
    if (!uri) throw fail(file, el, `undeclared prefix ${prefix}`);
    return `${this.prefixFor(uri, prefix)}:${local}`;
  }
}

/** Requerido/Opcional/ManejaEspacios must be the utilerias.xslt ones that cadena.ts implements. */
function checkUtility(file: string, el: Element, name: string): void {
  const text = new XMLSerializerLite().text(el);
  const expected: Record<string, RegExp> = {
    Requerido: /\|<xsl:call-template name="ManejaEspacios">/,
    Opcional: /<xsl:if test="\$valor">\|<xsl:call-template name="ManejaEspacios">/,
    ManejaEspacios: /<xsl:value-of select="normalize-space\(string\(\$s\)\)"\/>/,
  };
  const re = expected[name];
  if (!re || !re.test(text)) throw fail(file, el, `named template ${name} differs from utilerias.xslt`);
}

/** Just enough serialisation to recognise the utility templates (ignores whitespace and comments). */
class XMLSerializerLite {
  text(n: Node): string {
    if (n.nodeType === n.TEXT_NODE) return (n as unknown as { data: string }).data.trim();
    if (n.nodeType !== n.ELEMENT_NODE) return '';
    const el = n as Element;
    const attrs = Array.from({ length: el.attributes.length }, (_, i) => el.attributes.item(i)!)
      .map((a) => ` ${a.name}="${a.value}"`).join('');
    let inner = '';
    for (let c = el.firstChild; c; c = c.nextSibling) inner += this.text(c);
    return inner === '' ? `<${el.tagName}${attrs}/>` : `<${el.tagName}${attrs}>${inner}</${el.tagName}>`;
  }
}

function load(file: string): Element {
  const text = readFileSync(resolve(SAT_XML, file), 'utf8').replace(/^\uFEFF/, '');
  const doc = new DOMParser({ onError: (level, msg) => { if (level !== 'warning') throw new Error(`${file}: ${msg}`); } })
    .parseFromString(text, 'text/xml');
  const root = doc.documentElement;
  if (!root || root.namespaceURI !== XSL || root.localName !== 'stylesheet') throw new Error(`${file}: not an XSLT stylesheet`);
  return root;
}

/** Includes are relative paths or SAT URLs; both map into the mirrored www.sat.gob.mx tree. */
function resolveHref(from: string, href: string): string {
  if (href.startsWith(SAT_URL)) return href.slice(SAT_URL.length);
  if (/^[a-z]+:/i.test(href)) throw new Error(`${from}: include outside SAT: ${href}`);
  return relative(SAT_XML, resolve(SAT_XML, dirname(from), href)).split('\\').join('/');
}

function elements(parent: Element): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === n.ELEMENT_NODE) out.push(n as Element);
  return out;
}

function attr(el: Element, name: string): string {
  const v = el.getAttribute(name);
  if (v === null) throw new Error(`<${el.tagName}> without ${name}`);
  return v;
}

function fail(file: string, el: Element, why: string): Error {
  return new Error(`${file} <${el.tagName}>: ${why}`);
}

/** The TypeScript source of src/server/cfdi/cadena-table.ts. */
export function makeCadenaTable(): string {
  const c = new Compiler();
  const sheets = Object.entries(ROOTS).map(([id, path]) => [id, path, c.compileRoot(path)] as const);
  const json = (v: unknown) => JSON.stringify(v);
  const lines = [
    '// Generated by tests/tools/make-cadena-table.ts from SAT\'s cadena-original XSLT',
    '// (tests/fixtures/sat-xml, a mirror of www.sat.gob.mx/sitio_internet). Do not edit by hand.',
    '// Instructions: [\'t\', text] literal text; [\'r\', path] Requerido; [\'o\', path] Opcional;',
    '// [\'a\', path] apply-templates; [\'f\', path, body] for-each; [\'i\', path, body] if the path selects',
    '// something; [\'i=\', path, value, body] if a selected node equals value. Paths use the prefixes below.',
    'import type { CadenaTable } from \'./cadena\';',
    '',
    'export const CADENA_TABLE: CadenaTable = {',
    `  namespaces: ${json(Object.fromEntries(c.prefixes))},`,
    '  stylesheets: {',
    ...sheets.map(([id, path, s]) => `    ${id}: { source: ${json(path)}, root: ${json(s.root)}, groups: ${json(s.groups)} },`),
    '  },',
    '  groups: {',
    ...[...c.groups.values()].filter((g) => g.templates.size > 0).flatMap((g) => [
      `    ${json(g.file)}: {`,
      ...[...g.templates].map(([match, body]) => `      ${json(match)}: ${json(body)},`),
      '    },',
    ]),
    '  },',
    '};',
    '',
  ];
  return lines.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(TABLE_FILE, makeCadenaTable());
  console.log(`wrote ${relative(REPO_ROOT, TABLE_FILE)}`);
}
