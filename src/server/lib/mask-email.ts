// A person's e-mail shown to someone else (a merchant ticket's invoice, an invoice request's status).
/** 'juan.perez@example.com' → 'ju*******@ex*****.com': enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  const mask = (s: string) => s.slice(0, Math.min(2, Math.max(1, s.length - 1))) + '*'.repeat(Math.max(3, s.length - 2));
  return `${mask(local)}@${mask(host)}${tld}`;
}
