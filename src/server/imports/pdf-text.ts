// Best-effort facts from a PDF without its XML: the UUID, RFCs and a total, looked for
// in the file's text. Content streams compressed with FlateDecode are inflated with node:zlib (capped),
// and both literal "(…)" and hex "<…>" strings are read. No PDF library: a miss is fine, the file then
// becomes a ticket for review.
// Every scan here is one pass over its input (no backtracking regular expression over untrusted text:
// a stream of nothing but '(' once cost quadratic time), and what it collects is capped.
import { inflateSync } from 'node:zlib';

const MAX_INFLATED = 8 * 1024 * 1024;
/** Text kept per content stream, and per literal or hex string: far beyond any invoice's. */
const MAX_STREAM_TEXT = 1024 * 1024;
const MAX_STRING = 64 * 1024;
/** Content streams looked at per file. */
const MAX_STREAMS = 10_000;
const UUID_RE = /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/gi;
const RFC_RE = /\b[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}\b/g;
const TOTAL_RE = /total[^0-9\n]{0,24}?([\d,]+\.\d{2})/gi;

export interface PdfFacts {
  uuids: string[];
  rfcs: string[];
  /** The last "Total … 1,234.56" found, as "1234.56". */
  total: string | null;
}

/** Counts the characters the scanners visit (tests check that the work is linear). */
export interface ScanCounter {
  steps: number;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
const isOctal = (ch: number) => ch >= 0x30 && ch <= 0x37;
const isHex = (ch: number) => (ch >= 0x30 && ch <= 0x39) || (ch >= 0x41 && ch <= 0x46) || (ch >= 0x61 && ch <= 0x66);
const isSpace = (ch: number) => ch === 0x20 || ch === 0x0a || ch === 0x0d || ch === 0x09 || ch === 0x0c || ch === 0x00;

/**
 * The text shown by a content stream, roughly: its strings in order, a line break at each text operator
 * (TJ, Tj, T*, ET, '). One pass: every character is visited once, whatever the input.
 */
export function stringsOf(content: string, counter?: ScanCounter): string {
  const parts: string[] = [];
  let kept = 0;
  const keep = (s: string) => {
    if (kept >= MAX_STREAM_TEXT) return;
    const piece = s.length > MAX_STREAM_TEXT - kept ? s.slice(0, MAX_STREAM_TEXT - kept) : s;
    parts.push(piece);
    kept += piece.length;
  };
  const n = content.length;
  let i = 0;
  /** Loop turns, each looking at one character (or two): what the counter reports. */
  let visits = 0;
  while (i < n) {
    visits++;
    const ch = content.charCodeAt(i);
    if (ch === 0x28 /* ( */) {
      // A literal string: balanced parentheses nest, backslash escapes; an unclosed one runs to the end.
      let depth = 1;
      let out = '';
      i++;
      while (i < n && depth > 0) {
        visits++;
        const c = content.charCodeAt(i);
        if (c === 0x5c /* \ */) {
          const e = content[i + 1];
          if (e === undefined) {
            i++;
            break;
          }
          if (isOctal(content.charCodeAt(i + 1))) {
            let j = i + 1;
            let code = 0;
            while (j < n && j < i + 4 && isOctal(content.charCodeAt(j))) code = code * 8 + (content.charCodeAt(j++) - 0x30);
            if (out.length < MAX_STRING) out += String.fromCharCode(code & 0xff);
            i = j;
          } else {
            if (out.length < MAX_STRING) out += ESCAPES[e] ?? e;
            i += 2;
          }
          continue;
        }
        if (c === 0x28) depth++;
        else if (c === 0x29 /* ) */ && --depth === 0) {
          i++;
          break;
        }
        if (out.length < MAX_STRING) out += content[i];
        i++;
      }
      keep(out);
    } else if (ch === 0x3c /* < */) {
      if (content.charCodeAt(i + 1) === 0x3c) {
        i += 2; // a dictionary, not a string
        continue;
      }
      // A hex string: hex digits and spaces up to '>'; anything else ends it unread, and the scan goes on
      // from that character (never back to the '<').
      let j = i + 1;
      let hex = '';
      while (j < n) {
        visits++;
        const c = content.charCodeAt(j);
        if (isHex(c)) {
          if (hex.length < MAX_STRING * 2) hex += content[j];
        } else if (!isSpace(c)) break;
        j++;
      }
      if (j < n && content.charCodeAt(j) === 0x3e /* > */ && hex.length > 0) {
        let s = '';
        for (let k = 0; k + 1 < hex.length; k += 2) s += String.fromCharCode(parseInt(hex.slice(k, k + 2), 16));
        keep(s);
        i = j + 1;
      } else i = j;
    } else {
      const next = content.charCodeAt(i + 1);
      // "TJ", "Tj", "T*", "ET" and "'" end a piece of text.
      if ((ch === 0x54 /* T */ && (next === 0x4a || next === 0x6a || next === 0x2a)) || (ch === 0x45 /* E */ && next === 0x54)) {
        keep('\n');
        i += 2;
      } else {
        if (ch === 0x27 /* ' */) keep('\n');
        i++;
      }
    }
  }
  if (counter) counter.steps += visits;
  return parts.join('');
}

/** The texts to search: the raw file and each inflated stream's strings. */
export function pdfTexts(bytes: Uint8Array, counter?: ScanCounter): string[] {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin = raw.toString('latin1');
  const texts = [latin];
  let budget = MAX_INFLATED * 4;
  let at = 0;
  for (let streams = 0; budget > 0 && streams < MAX_STREAMS; streams++) {
    const found = latin.indexOf('stream', at);
    if (found < 0) break;
    let start = found + 6;
    if (latin[start] === '\r') start++;
    if (latin[start] !== '\n') {
      at = found + 6;
      continue;
    }
    start++;
    const end = latin.indexOf('endstream', start);
    if (end < 0) break;
    // Whatever happens to this stream, the next search starts after it: no stretch is searched twice.
    at = end + 9;
    if (counter) counter.steps += end - found;
    const dict = latin.slice(Math.max(0, found - 400), found);
    const body = raw.subarray(start, end);
    let content: string;
    if (dict.slice(dict.lastIndexOf('<<')).includes('/FlateDecode')) {
      try {
        const out = inflateSync(body, { maxOutputLength: Math.min(MAX_INFLATED, budget) });
        budget -= out.length;
        content = out.toString('latin1');
      } catch {
        continue;
      }
    } else content = body.toString('latin1');
    texts.push(stringsOf(content, counter));
  }
  return texts;
}

export function pdfFacts(bytes: Uint8Array, counter?: ScanCounter): PdfFacts {
  const uuids = new Set<string>();
  const rfcs = new Set<string>();
  let total: string | null = null;
  // These patterns have bounded repetitions (or, for the total, digits that end at the next non-digit):
  // each is linear in the text.
  for (const t of pdfTexts(bytes, counter)) {
    for (const u of t.match(UUID_RE) ?? []) uuids.add(u.toUpperCase());
    for (const r of t.toUpperCase().match(RFC_RE) ?? []) rfcs.add(r);
    for (const m of t.matchAll(TOTAL_RE)) total = m[1]!.replace(/,/g, '');
  }
  return { uuids: [...uuids], rfcs: [...rfcs], total };
}
