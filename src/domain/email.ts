// E-mail shape check: pragmatic (one @, a dot in the domain, no spaces), as the spec asks for "valid".
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
export const EMAIL_MAX = 254;

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function isValidEmail(raw: string): boolean {
  const email = normalizeEmail(raw);
  return email.length <= EMAIL_MAX && EMAIL_RE.test(email);
}
