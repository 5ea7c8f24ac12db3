// The login screen's install offer: the browser's prompt, iOS Safari's steps, store links only when set.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InstallApp } from '../../../src/app/auth/install-app';
import { isIosSafariBrowser } from '../../../src/app/layout/install-prompt';

const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';
const IPAD_DESKTOP_MODE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe('isIosSafariBrowser', () => {
  const p = (userAgent: string, extra: Partial<{ platform: string; maxTouchPoints: number; standalone: boolean }> = {}) => ({
    userAgent,
    platform: 'iPhone',
    maxTouchPoints: 5,
    standalone: false,
    ...extra,
  });
  it('Safari on iPhone and on an iPad that reports itself as a Mac', () => {
    expect(isIosSafariBrowser(p(IPHONE_SAFARI))).toBe(true);
    expect(isIosSafariBrowser(p(IPAD_DESKTOP_MODE, { platform: 'MacIntel' }))).toBe(true);
  });
  it('not when already opened from the home screen, not other iOS browsers, not Android, not a Mac', () => {
    expect(isIosSafariBrowser(p(IPHONE_SAFARI, { standalone: true }))).toBe(false);
    expect(isIosSafariBrowser(p(IPHONE_CHROME))).toBe(false);
    expect(isIosSafariBrowser(p(ANDROID_CHROME, { platform: 'Linux armv8l' }))).toBe(false);
    expect(isIosSafariBrowser(p(IPAD_DESKTOP_MODE, { platform: 'MacIntel', maxTouchPoints: 0 }))).toBe(false);
  });
});

describe('InstallApp', () => {
  it('shows nothing without a prompt, outside iOS Safari and with no store configured: no placeholder badges', () => {
    const html = renderToStaticMarkup(<InstallApp ios={false} />);
    expect(html).toBe('');
  });
  it('on iOS Safari offers Instalar la app, whose steps open on demand', () => {
    const html = renderToStaticMarkup(<InstallApp ios />);
    expect(html).toContain('Instalar la app');
    expect(html).toContain('aria-expanded="false"');
    expect(html).not.toContain('App Store');
    expect(html).not.toContain('Google Play');
  });
});
