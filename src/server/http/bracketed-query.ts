// Bracketed GET payloads (DESIGN §3): `usuario[rfc_owner]=X&date[year]=2026&tickets[]=a` → nested objects.
export type QueryValue = string | QueryValue[] | QueryObject;
export interface QueryObject {
  [key: string]: QueryValue;
}

const MAX_PARAMS = 1000;
const MAX_DEPTH = 5;
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Splits `a[b][]` into ['a', 'b', '']; a key with unbalanced brackets stays a plain key. */
function splitKey(key: string): string[] {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return [key];
  const parts = [key.slice(0, open)];
  const rest = key.slice(open);
  const re = /\[([^[\]]*)\]/g;
  let consumed = 0;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m.index !== consumed) return [key];
    parts.push(m[1] ?? '');
    consumed = re.lastIndex;
  }
  if (consumed !== rest.length) return [key];
  return parts.length - 1 > MAX_DEPTH ? [key] : parts;
}

function isObject(v: QueryValue | undefined): v is QueryObject {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function parseBracketedQuery(input: string | URLSearchParams): QueryObject {
  const params = typeof input === 'string' ? new URLSearchParams(input.startsWith('?') ? input.slice(1) : input) : input;
  const root: QueryObject = {};
  let count = 0;
  for (const [rawKey, value] of params) {
    if (++count > MAX_PARAMS) break;
    const path = splitKey(rawKey);
    if (path.some((p) => FORBIDDEN.has(p))) continue;
    let node: QueryObject = root;
    for (let i = 0; i < path.length; i++) {
      const part = path[i] as string;
      const last = i === path.length - 1;
      const nextIsPush = path[i + 1] === '';
      if (last) {
        if (part === '') break; // handled by the parent as a push
        const existing = node[part];
        if (existing === undefined) node[part] = value;
        else if (Array.isArray(existing)) existing.push(value);
        else if (typeof existing === 'string') node[part] = [existing, value];
        break;
      }
      if (nextIsPush && i + 1 === path.length - 1) {
        const existing = node[part];
        if (Array.isArray(existing)) existing.push(value);
        else if (typeof existing === 'string') node[part] = [existing, value];
        else if (existing === undefined) node[part] = [value];
        break;
      }
      if (part === '') break; // `a[][b]` is not supported: ignore
      let child = node[part];
      if (!isObject(child)) {
        if (child !== undefined) break; // a scalar already lives here: keep the first shape
        child = {};
        node[part] = child;
      }
      node = child;
    }
  }
  return root;
}
