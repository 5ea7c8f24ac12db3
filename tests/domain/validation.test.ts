// Validation answers only in Spanish: issues without a message of their own get one that names the field,
// '' reads as "none" in optional numbers, and the control-character rule finds the field that breaks it.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { controlCharsAt, controlCharsMessage, hasControlChars } from '../../src/domain/text-input';
import { numberOrNone, optionalNumber, validate } from '../../src/domain/validation';

const ENGLISH = /Invalid|Expected|received/;

describe('validate', () => {
  const Body = v.object({
    user: v.object({ login: v.string(), age: v.optional(v.number()) }),
    items: v.array(v.object({ id: v.number() })),
    named: v.optional(v.string('Escribe un nombre.')),
  });

  it('names a missing field in Spanish', () => {
    expect(validate(Body, { items: [] })).toEqual({ success: false, message: 'El campo «user» es obligatorio.' });
    expect(validate(Body, { user: {}, items: [] })).toEqual({ success: false, message: 'El campo «user.login» es obligatorio.' });
  });

  it('names a field of the wrong type, deep inside arrays too', () => {
    expect(validate(Body, { user: { login: 'a', age: 'x' }, items: [] })).toEqual({ success: false, message: 'El campo «user.age» no tiene un valor válido.' });
    expect(validate(Body, { user: { login: 'a' }, items: [{ id: 1 }, { id: '2' }] })).toEqual({
      success: false,
      message: 'El campo «items[1].id» no tiene un valor válido.',
    });
  });

  it("keeps a schema's own message and reads a payload that is not an object as unreadable", () => {
    expect(validate(Body, { user: { login: 'a' }, items: [], named: 5 })).toEqual({ success: false, message: 'Escribe un nombre.' });
    expect(validate(Body, 5)).toEqual({ success: false, message: MSG.badJson });
    expect(validate(Body, { user: { login: 'a' }, items: [] })).toEqual({ success: true, output: { user: { login: 'a' }, items: [] } });
  });
});

describe('optionalNumber', () => {
  const S = v.object({ lat: optionalNumber(), tag: optionalNumber('Elige una categoría.', { integer: true }) });

  it("reads '', null, whitespace and a missing key as none", () => {
    for (const lat of ['', '  ', null, undefined]) expect(validate(S, { lat, tag: '' })).toEqual({ success: true, output: { lat: null, tag: null } });
  });

  it('takes numbers and numeric strings, and refuses the rest in Spanish', () => {
    expect(validate(S, { lat: '19.43', tag: '7' })).toEqual({ success: true, output: { lat: 19.43, tag: 7 } });
    expect(validate(S, { lat: -99.1, tag: 3 })).toEqual({ success: true, output: { lat: -99.1, tag: 3 } });
    expect(validate(S, { lat: 'norte' })).toEqual({ success: false, message: 'El campo «lat» no tiene un valor válido.' });
    expect(validate(S, { lat: {} })).toEqual({ success: false, message: 'El campo «lat» no tiene un valor válido.' });
    expect(validate(S, { tag: '1.5' })).toEqual({ success: false, message: 'Elige una categoría.' });
    expect(validate(S, { tag: [] })).toEqual({ success: false, message: 'Elige una categoría.' });
  });

  it('leaves a missing key missing with numberOrNone inside v.optional (edits: absent = unchanged)', () => {
    const Edit = v.object({ area: v.optional(numberOrNone(undefined, { integer: true })) });
    expect(validate(Edit, {})).toEqual({ success: true, output: {} });
    expect(validate(Edit, { area: '' })).toEqual({ success: true, output: { area: null } });
  });
});

describe('control characters', () => {
  it('refuses C0 controls but tab, line feed and carriage return', () => {
    for (const c of ['\u0000', '\u0001', '\b', '\u000b', '\f', '\u000e', '\u001b', '\u001f']) expect(hasControlChars(`a${c}b`)).toBe(true);
    for (const ok of ['a\tb', 'a\nb', 'a\r\nb', 'ñandú €', '\u007f', '']) expect(hasControlChars(ok)).toBe(false);
  });

  it('finds the field that holds one, keys included', () => {
    expect(controlCharsAt({ user: { login: 'x', password: 'ok' }, notes: ['a', 'b\u0000'] })).toBe('notes[1]');
    expect(controlCharsAt({ ticket: [{ value: 'a' }, { value: '\u0007' }] })).toBe('ticket[1].value');
    expect(controlCharsAt({ a: { 'b\u0000': 1 } })).toBe('a');
    expect(controlCharsAt('\u0000')).toBe('');
    expect(controlCharsAt({ a: 'tab\there', n: 5, t: true, z: null })).toBeNull();
    expect(controlCharsMessage('note')).toBe('El campo «note» contiene caracteres no permitidos. Quítalos e intenta de nuevo.');
    expect(controlCharsMessage('')).toBe(MSG.requestControlChars);
  });

  it('walks deep payloads without overflowing the stack', () => {
    let deep: unknown = 'fin\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(controlCharsAt(deep)).toMatch(/^\[0\]/);
  });
});

// Every request schema of the domain and of the server's schema files, broken one field at a time:
// whatever is wrong, the answer is Spanish.
type AnySchema = v.GenericSchema & { type: string; entries?: Record<string, AnySchema>; item?: AnySchema; wrapped?: AnySchema; options?: unknown[]; pipe?: AnySchema[]; literal?: unknown };

function skeleton(s: AnySchema, depth = 0): unknown {
  if (depth > 8) return undefined;
  const inner = s.pipe?.[0] && s.pipe[0] !== s ? s.pipe[0] : s;
  switch (inner.type) {
    case 'object':
    case 'loose_object':
    case 'strict_object':
      return Object.fromEntries(Object.entries(inner.entries ?? {}).map(([k, e]) => [k, skeleton(e, depth + 1)]));
    case 'array':
      return [skeleton(inner.item as AnySchema, depth + 1)];
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
      return skeleton(inner.wrapped as AnySchema, depth + 1);
    case 'union':
      return skeleton((inner.options as AnySchema[])[0] as AnySchema, depth + 1);
    case 'picklist':
      return (inner.options as unknown[])[0];
    case 'literal':
      return inner.literal;
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return 'x';
    default:
      return undefined;
  }
}

function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out = [at];
  if (Array.isArray(value)) value.forEach((x, i) => out.push(...paths(x, [...at, i])));
  else if (value && typeof value === 'object') for (const [k, x] of Object.entries(value)) out.push(...paths(x, [...at, k]));
  return out;
}

function replaced(root: unknown, path: (string | number)[], next: unknown): unknown {
  if (path.length === 0) return next;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (next === undefined) delete node[last];
  else node[last] = next;
  return copy;
}

const modules = {
  ...import.meta.glob('../../src/domain/{auth-schemas,chat,client-schemas,merchant-api,receipt-share,ticket-schemas}.ts', { eager: true }),
  ...import.meta.glob('../../src/server/*/schemas.ts', { eager: true }),
} as Record<string, Record<string, unknown>>;

const schemas = Object.entries(modules).flatMap(([file, mod]) =>
  Object.entries(mod)
    .filter(([, x]) => !!x && typeof x === 'object' && (x as { kind?: string }).kind === 'schema' && 'entries' in (x as object))
    .map(([name, x]) => [`${file.replace(/^.*src\//, '')} ${name}`, x as AnySchema] as const),
);

describe('every request schema answers in Spanish', () => {
  it('finds the schemas', () => {
    expect(schemas.map(([n]) => n)).toEqual(expect.arrayContaining([expect.stringContaining('LoginBody'), expect.stringContaining('CreateTicketBody')]));
  });

  it.each(schemas)('%s', (_name, schema) => {
    const base = skeleton(schema);
    const wrong = [undefined, null, 5, -1.5, '', 'x', true, {}, [], [{}], '\u0000'];
    let checked = 0;
    for (const path of paths(base)) {
      for (const value of wrong) {
        const r = validate(schema, replaced(base, path, value));
        if (r.success) continue;
        checked++;
        expect(r.message, `${path.join('.')} = ${JSON.stringify(value)}`).not.toMatch(ENGLISH);
        expect(r.message.length).toBeGreaterThan(0);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
