// Text that arrives from outside (JSON bodies, query strings, path segments, form fields, header values):
// C0 control characters other than tab, line feed and carriage return have no place in anything a person
// types, and PostgreSQL refuses NUL in text outright (a 500, with the value quoted in the failed query).
// One rule, checked where the text comes in, so no handler or query ever sees them.
import { MSG } from './messages';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

export const hasControlChars = (text: string): boolean => CONTROL.test(text);

/** How a field's place in a payload is named to the user: `user.login`, `ticket[0].value`. */
export function fieldPathText(path: readonly (string | number)[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${key}` : key;
  }
  return out;
}

/**
 * Where the first control character of a parsed payload is: the path of the string (or key) that holds
 * it ('' for the payload itself), or null when there is none. Iterative, so deep nesting cannot overflow.
 */
export function controlCharsAt(value: unknown): string | null {
  // Each node keeps its parent and key rather than a copy of its path: a path is built only when found.
  interface Node {
    value: unknown;
    parent: Node | null;
    key: string | number | null;
  }
  const pathOf = (node: Node | null): string => {
    const path: (string | number)[] = [];
    for (let n = node; n && n.key !== null; n = n.parent) path.push(n.key);
    return fieldPathText(path.reverse());
  };
  const stack: Node[] = [{ value, parent: null, key: null }];
  while (stack.length) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === 'string') {
      if (hasControlChars(v)) return pathOf(node);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: node, key: i });
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i] as [string, unknown];
        if (hasControlChars(key)) return pathOf(node);
        stack.push({ value: child, parent: node, key });
      }
    }
  }
  return null;
}

/** The 400 message for a control character found at `field` (a payload path; '' or null: not a field). */
export function controlCharsMessage(field: string | null): string {
  return field ? MSG.fieldControlChars.replace('{campo}', field) : MSG.requestControlChars;
}
