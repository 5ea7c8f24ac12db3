// Pure helpers of the OAuth screens: which icons may be shown, the fallback initial, where the browser may go.

/** Only icons the page's CSP can load (img-src 'self' data:) and that cannot carry script: images as data: URLs or our own paths. */
export function safeIconSrc(icon: string | undefined | null): string | null {
  if (!icon) return null;
  if (/^data:image\/(png|jpeg|webp|gif|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(icon)) return icon;
  if (icon.startsWith('/') && !icon.startsWith('//') && !icon.includes('\\')) return icon;
  return null;
}

/** The letter shown when an app has no usable icon. */
export function appInitial(name: string): string {
  const first = name.trim().charAt(0);
  return first ? first.toLocaleUpperCase('es-MX') : '?';
}

/** The server's redirect_url is the app's registered http(s) callback; anything else is not followed. */
export function isFollowableRedirect(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}
