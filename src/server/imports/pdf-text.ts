// Best-effort facts from a PDF without its XML (issue 5 item 4): the UUID, RFCs and a total, looked for
// in the file's text. Content streams compressed with FlateDecode are inflated with node:zlib (capped),
// and both literal "(…)" and hex "<…>" strings are read. No PDF library: a miss is fine, the file then
// becomes a ticket for review.
import { inflateSync } from 'node:zlib';

const MAX_INFLATED = 8 * 1024 * 1024;
const UUID_RE = /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/gi;
const RFC_RE = /\b[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}\b/g;
const TOTAL_RE = /total[^0-9\n]{0,24}?([\d,]+\.\d{2})/gi;

export interface PdfFacts {
  uuids: string[];
  rfcs: string[];
  /** The last "Total … 1,234.56" found, as "1234.56". */
  total: string | null;
}

function unescapeLiteral(s: string): string {
  return s.replace(/\\([nrtbf()\\]|[0-7]{1,3})/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
  });
}

/** The text shown by a content stream, roughly: its strings in order (TJ arrays joined). */
function stringsOf(content: string): string {
  const parts: string[] = [];
  const re = /\(((?:\\.|[^\\)])*)\)|<([0-9A-Fa-f\s]+)>|(T[Jj*]|ET|')/g;
  for (let m = re.exec(content); m; m = re.exec(content)) {
    if (m[1] !== undefined) parts.push(unescapeLiteral(m[1]));
    else if (m[2] !== undefined) {
      const hex = m[2].replace(/\s/g, '');
      let s = '';
      for (let i = 0; i + 1 < hex.length; i += 2) s += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16));
      parts.push(s);
    } else parts.push('\n');
  }
  return parts.join('');
}

/** The texts to search: the raw file and each inflated stream's strings. */
export function pdfTexts(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin = raw.toString('latin1');
  const texts = [latin];
  const re = /stream\r?\n/g;
  let budget = MAX_INFLATED * 4;
  for (let m = re.exec(latin); m && budget > 0; m = re.exec(latin)) {
    const start = m.index + m[0].length;
    const end = latin.indexOf('endstream', start);
    if (end < 0) break;
    const dict = latin.slice(Math.max(0, m.index - 400), m.index);
    const body = raw.subarray(start, end);
    let content: string;
    if (/\/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))) {
      try {
        const out = inflateSync(body, { maxOutputLength: MAX_INFLATED });
        budget -= out.length;
        content = out.toString('latin1');
      } catch {
        continue;
      }
    } else content = body.toString('latin1');
    texts.push(stringsOf(content));
    re.lastIndex = end;
  }
  return texts;
}

export function pdfFacts(bytes: Uint8Array): PdfFacts {
  const uuids = new Set<string>();
  const rfcs = new Set<string>();
  let total: string | null = null;
  for (const t of pdfTexts(bytes)) {
    for (const u of t.match(UUID_RE) ?? []) uuids.add(u.toUpperCase());
    for (const r of t.toUpperCase().match(RFC_RE) ?? []) rfcs.add(r);
    for (const m of t.matchAll(TOTAL_RE)) total = m[1]!.replace(/,/g, '');
  }
  return { uuids: [...uuids], rfcs: [...rfcs], total };
}
