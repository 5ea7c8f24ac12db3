import { describe, expect, it } from 'vitest';
import { ANONYMOUS_MERCHANT } from '../../src/domain/merchants';
import { ANONYMOUS_START, chooseTopLevel, guardRoute, safeRedirect, splitFragment } from '../../src/app/top-level';

describe('splitFragment', () => {
  it('separates path and query, with or without the hash', () => {
    expect(splitFragment('#/join?token=abc')).toEqual({ path: '/join', query: 'token=abc' });
    expect(splitFragment('/login')).toEqual({ path: '/login', query: '' });
    expect(splitFragment('')).toEqual({ path: '/', query: '' });
    expect(splitFragment('#')).toEqual({ path: '/', query: '' });
  });
});

describe('chooseTopLevel (spec §2)', () => {
  it('rules 1-3 win even over a session when a query string is present', () => {
    expect(chooseTopLevel('#/tickets?ref=R1', true)).toBe('tickets');
    expect(chooseTopLevel('#/oauth?oauth_token=t', false)).toBe('oauth');
    expect(chooseTopLevel('#/join?token=t', false)).toBe('join');
  });

  it('without a query string those paths fall through to the other rules', () => {
    expect(chooseTopLevel('#/join', false)).toBe('public');
    expect(chooseTopLevel('#/tickets', true)).toBe('signed-in');
  });

  it('rule 4: a stored session shows the signed-in layout, whatever the route', () => {
    expect(chooseTopLevel('#/', true)).toBe('signed-in');
    expect(chooseTopLevel('#/register', true)).toBe('signed-in');
  });

  it('rule 5: exactly the register path signed out', () => {
    expect(chooseTopLevel('#/register', false)).toBe('register');
    expect(chooseTopLevel('#/register/x', false)).toBe('public');
  });

  it('rule 6: anything else signed out', () => {
    expect(chooseTopLevel('#/', false)).toBe('public');
    expect(chooseTopLevel('#/plans', false)).toBe('public');
  });
});

describe('guardRoute', () => {
  it('sends signed-out visitors of private routes to login, remembering where they were going', () => {
    expect(guardRoute('/add-client', false)).toEqual({ kind: 'redirect', to: '/login', redirect: '/add-client' });
    expect(guardRoute('/ticket/new', false)).toEqual({ kind: 'redirect', to: '/login', redirect: '/ticket/new' });
    expect(guardRoute('/merchant/autozone?ref=R&check=C&total=10.00', false)).toEqual({
      kind: 'redirect', to: '/login', redirect: '/merchant/autozone?ref=R&check=C&total=10.00',
    });
  });

  it('rule 6: a signed-out root shows the anonymous ticket form of the mobile-telecom merchant', () => {
    expect(guardRoute('/', false)).toEqual({ kind: 'redirect', to: ANONYMOUS_START });
    expect(guardRoute('/home', false)).toEqual({ kind: 'redirect', to: ANONYMOUS_START });
    expect(ANONYMOUS_START).toBe(`/ticket/form-anonymous/${ANONYMOUS_MERCHANT}`);
    expect(guardRoute(ANONYMOUS_START, false)).toEqual({ kind: 'ok' });
    expect(guardRoute('/ticket/form-anonymous/otro', false)).toEqual({ kind: 'ok' });
    expect(guardRoute(ANONYMOUS_START, true)).toEqual({ kind: 'ok' });
    // login stays reachable from there
    expect(guardRoute('/login', false)).toEqual({ kind: 'ok' });
  });

  it('lets signed-out visitors reach the public screens and registration', () => {
    for (const p of ['/login', '/forgot-password', '/reset-password?token=x', '/register']) {
      expect(guardRoute(p, false)).toEqual({ kind: 'ok' });
    }
  });

  it('sends signed-in users away from login and register to home', () => {
    expect(guardRoute('/login', true)).toEqual({ kind: 'redirect', to: '/' });
    expect(guardRoute('/register', true)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('lets signed-in users reach every other route (unknown ones become not-found inside the layout)', () => {
    expect(guardRoute('/', true)).toEqual({ kind: 'ok' });
    expect(guardRoute('/subscription', true)).toEqual({ kind: 'ok' });
  });

  it('rule 1: the receipt view is public, signed in or not', () => {
    expect(guardRoute('/tickets?ref=1', false)).toEqual({ kind: 'ok' });
    expect(guardRoute('/tickets?ref=1', true)).toEqual({ kind: 'ok' });
  });

  it('rule 2: the OAuth authorisation screen is shown signed in or not', () => {
    expect(guardRoute('/oauth?oauth_token=1', false)).toEqual({ kind: 'ok' });
    expect(guardRoute('/oauth?oauth_token=1', true)).toEqual({ kind: 'ok' });
  });

  it('rule 3: the join screen is shown signed in or not', () => {
    expect(guardRoute('/join?token=1', false)).toEqual({ kind: 'ok' });
    expect(guardRoute('/join?token=1', true)).toEqual({ kind: 'ok' });
  });
});

describe('safeRedirect', () => {
  it('accepts app paths only', () => {
    expect(safeRedirect('/add-client')).toBe('/add-client');
    expect(safeRedirect('//evil.example')).toBeNull();
    expect(safeRedirect('https://evil.example')).toBeNull();
    expect(safeRedirect('/\\evil')).toBeNull();
    expect(safeRedirect('/login')).toBeNull();
    expect(safeRedirect(undefined)).toBeNull();
  });
});
