import { describe, expect, it } from 'vitest';
import { parseBracketedQuery } from '../../../src/server/http/bracketed-query';

describe('parseBracketedQuery', () => {
  it('nests bracketed keys as the client sends them (DESIGN §3)', () => {
    expect(parseBracketedQuery('usuario[rfc_owner]=XAXX010101000&date[year]=2026&date[month]=11')).toEqual({
      usuario: { rfc_owner: 'XAXX010101000' },
      date: { year: '2026', month: '11' },
    });
  });

  it('collects `[]` keys into arrays, in order', () => {
    expect(parseBracketedQuery('tickets[]=a&tickets[]=b&tickets[]=c')).toEqual({ tickets: ['a', 'b', 'c'] });
  });

  it('keeps plain keys, repeats become arrays, and decodes values', () => {
    expect(parseBracketedQuery('?action=stats&a=1&a=2&q=Caf%C3%A9+y+pan')).toEqual({ action: 'stats', a: ['1', '2'], q: 'Café y pan' });
  });

  it('nests several levels and accepts URL-encoded brackets', () => {
    expect(parseBracketedQuery('a%5Bb%5D%5Bc%5D=x&a[b][d]=y&company[id]=7')).toEqual({ a: { b: { c: 'x', d: 'y' } }, company: { id: '7' } });
  });

  it('ignores prototype-polluting keys', () => {
    const out = parseBracketedQuery('__proto__[polluted]=1&a[__proto__][x]=1&constructor[prototype][y]=2&ok=1');
    expect(out).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats unbalanced brackets as a plain key and keeps the first shape on conflicts', () => {
    expect(parseBracketedQuery('a[b=1&c]=2')).toEqual({ 'a[b': '1', 'c]': '2' });
    expect(parseBracketedQuery('a=1&a[b]=2')).toEqual({ a: '1' });
  });

  it('accepts a URLSearchParams and an empty input', () => {
    expect(parseBracketedQuery(new URLSearchParams('x[y]=1'))).toEqual({ x: { y: '1' } });
    expect(parseBracketedQuery('')).toEqual({});
  });
});
