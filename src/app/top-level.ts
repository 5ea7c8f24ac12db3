// The top-level choice of screen (spec §2), as pure functions the router's guard calls.
export type TopLevel = 'tickets' | 'oauth' | 'join' | 'signed-in' | 'register' | 'public';

/** Screens for signed-out visitors (rule 6's anonymous form is below). */
export const PUBLIC_PATHS: readonly string[] = ['/login', '/forgot-password', '/reset-password'];
/** Rule 6: a signed-out '#/' shows the anonymous ticket form of ANONYMOUS_MERCHANT. Kept as a
 *  literal so this module (in the entry chunk) does not pull the merchants list. */
export const ANONYMOUS_FORM_PREFIX = '/ticket/form-anonymous';
export const ANONYMOUS_START = `${ANONYMOUS_FORM_PREFIX}/movil-norte`;
export const REGISTER_PATH = '/register';
/** Paths of rules 1–3; their screens arrive with later issues (3: tickets, 8: oauth and join). */
const TICKETS_PATH = '/tickets';
const OAUTH_PATH = '/oauth';
const JOIN_PATH = '/join';

/** "#/join?token=x" or "/join?token=x" → { path: '/join', query: 'token=x' }. */
export function splitFragment(fragment: string): { path: string; query: string } {
  const raw = fragment.replace(/^#/, '');
  const q = raw.indexOf('?');
  const path = (q === -1 ? raw : raw.slice(0, q)) || '/';
  const query = q === -1 ? '' : raw.slice(q + 1);
  return { path: path.startsWith('/') ? path : `/${path}`, query };
}

const startsWithSegment = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

export function chooseTopLevel(fragment: string, hasSession: boolean): TopLevel {
  const { path, query } = splitFragment(fragment);
  if (query) {
    if (startsWithSegment(path, TICKETS_PATH)) return 'tickets';
    if (startsWithSegment(path, OAUTH_PATH)) return 'oauth';
    if (startsWithSegment(path, JOIN_PATH)) return 'join';
  }
  if (hasSession) return 'signed-in';
  if (path === REGISTER_PATH) return 'register';
  return 'public';
}

export type Guard =
  | { kind: 'ok' }
  | { kind: 'not-found' }
  | { kind: 'redirect'; to: string; redirect?: string };

/** Only same-app paths may be redirect targets (no "//evil.example" or absolute URLs). */
export function safeRedirect(raw: unknown): string | null {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  const { path } = splitFragment(raw);
  if (PUBLIC_PATHS.includes(path) || path === REGISTER_PATH) return null;
  return raw;
}

/** What the router does with a location: show it, send elsewhere, or show not-found. */
export function guardRoute(fragment: string, hasSession: boolean): Guard {
  const top = chooseTopLevel(fragment, hasSession);
  const { path } = splitFragment(fragment);
  switch (top) {
    case 'tickets':
      return { kind: 'ok' }; // rule 1: the public receipt view, signed in or not
    case 'oauth':
      return { kind: 'ok' }; // rule 2: the OAuth authorisation screen signs in by itself
    case 'join':
      return { kind: 'ok' }; // rule 3: the join screen signs in or signs up by itself
    case 'signed-in':
      return PUBLIC_PATHS.includes(path) || path === REGISTER_PATH ? { kind: 'redirect', to: '/' } : { kind: 'ok' };
    case 'register':
      return { kind: 'ok' };
    case 'public': {
      if (PUBLIC_PATHS.includes(path) || path.startsWith(`${ANONYMOUS_FORM_PREFIX}/`)) return { kind: 'ok' };
      // Rule 6: the root shows the anonymous form; deep links to signed-in screens still go to login.
      if (path === '/' || path === '/home') return { kind: 'redirect', to: ANONYMOUS_START };
      const back = safeRedirect(fragment.replace(/^#/, ''));
      return back ? { kind: 'redirect', to: '/login', redirect: back } : { kind: 'redirect', to: '/login' };
    }
  }
}
