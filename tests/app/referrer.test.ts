import { describe, expect, it } from 'vitest';
import { referringPage } from '../../src/app/register/referrer';

describe('referringPage (spec §4 Register)', () => {
  const here = 'https://app.example.mx/#/register';

  it('returns a same-origin page that is not the app page itself', () => {
    expect(referringPage('https://app.example.mx/precios.html', here)).toBe('https://app.example.mx/precios.html');
  });

  it('ignores other origins, the app page itself and garbage', () => {
    expect(referringPage('https://other.example/', here)).toBeNull();
    expect(referringPage('https://app.example.mx/', here)).toBeNull();
    expect(referringPage('', here)).toBeNull();
    expect(referringPage('not a url', here)).toBeNull();
  });
});
