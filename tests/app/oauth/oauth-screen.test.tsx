// The OAuth screen's pieces: which icons may be shown (CSP img-src 'self' data:), the app card's may/may-not
// lists (spec §6: profile and tax data, never invoices or passwords), and which redirects are followed.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { AppCard, AppIcon } from '../../../src/app/oauth/app-card';
import { appInitial, isFollowableRedirect, safeIconSrc } from '../../../src/app/oauth/oauth-model';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('safeIconSrc', () => {
  it('keeps data: images and own paths, drops remote, script and odd URLs', () => {
    expect(safeIconSrc(PNG)).toBe(PNG);
    expect(safeIconSrc('/merchants/oxxo.png')).toBe('/merchants/oxxo.png');
    for (const bad of ['https://cdn.example/icon.png', '//evil.example/x.png', 'javascript:alert(1)', 'data:text/html;base64,PGI+', '/\\evil', '', null, undefined]) {
      expect(safeIconSrc(bad), String(bad)).toBeNull();
    }
  });
});

describe('appInitial and isFollowableRedirect', () => {
  it('uses the first letter, uppercased, or ? for a blank name', () => {
    expect(appInitial('  ñandú app')).toBe('Ñ');
    expect(appInitial('   ')).toBe('?');
  });
  it('follows only http(s) callbacks', () => {
    expect(isFollowableRedirect('https://app.example/cb?oauth_token=a&oauth_verifier=b')).toBe(true);
    expect(isFollowableRedirect('http://127.0.0.1:4000/cb')).toBe(true);
    expect(isFollowableRedirect('javascript:alert(1)')).toBe(false);
    expect(isFollowableRedirect('no es url')).toBe(false);
  });
});

describe('AppCard', () => {
  const app = { name: 'Contabilízate', description: 'Tu contabilidad en automático.', icon: PNG, website: 'https://conta.example.mx', callback_url: 'https://conta.example.mx/cb' };

  it('shows name, description, icon, website and what the app may and may not read', () => {
    const html = renderToStaticMarkup(<AppCard app={app} />);
    expect(html).toContain('<h1 class="oauth-app__name">Contabilízate</h1>');
    expect(html).toContain('Tu contabilidad en automático.');
    expect(html).toContain(`src="${PNG}"`);
    expect(html).toContain('conta.example.mx');
    for (const text of [MSG.oauthMayRead, MSG.oauthMayReadProfile, MSG.oauthMayReadTax, MSG.oauthMayNotRead, MSG.oauthMayNotInvoices, MSG.oauthMayNotPasswords]) {
      expect(html).toContain(text);
    }
  });

  it('falls back to the initial for a remote icon, and hides a non-http website', () => {
    const html = renderToStaticMarkup(<AppCard app={{ ...app, icon: 'https://cdn.example/i.png', website: 'javascript:alert(1)' }} />);
    expect(html).not.toContain('cdn.example');
    expect(html).not.toContain('javascript:');
    expect(renderToStaticMarkup(<AppIcon name="contabilízate" icon="" />)).toContain('>C</span>');
  });
});
