// The "device" block the login and sign-up calls carry: a random id per install, never a fingerprint,
// kept in the device store (not Web Storage, which logout empties).
export { installId as deviceId } from '../../offline/device-token';

export function deviceModel(): string {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/Android/i.test(ua)) return 'Android';
  if (/iPhone|iPad|iPod/i.test(ua)) return 'iOS';
  if (/Mac OS X/i.test(ua)) return 'macOS';
  if (/Windows/i.test(ua)) return 'Windows';
  if (/Linux/i.test(ua)) return 'Linux';
  return 'Web';
}
