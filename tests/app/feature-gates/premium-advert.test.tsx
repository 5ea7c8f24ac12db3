// The premium advert (spec §2, §6): a link to the plans and 'Iniciar contacto' with a prefilled message.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { onOpenSupportChat, openSupportChat } from '../../../src/app/layout/open-chat';
import { PremiumAdvert, premiumChatMessage } from '../../../src/app/feature-gates/premium-advert';

describe('PremiumAdvert', () => {
  it('links personal features to the subscription profile and company ones to the company pricing page', () => {
    const sat = renderToStaticMarkup(<PremiumAdvert feature="SincronizacionSAT" />);
    expect(sat).toContain('href="/#/subscription"');
    expect(sat).toContain('Función Premium');
    expect(sat).toContain('Iniciar contacto');
    expect(sat).not.toContain('/#/plans/company');
    const perDiem = renderToStaticMarkup(<PremiumAdvert feature="Viaticos" />);
    expect(perDiem).toContain('href="/#/plans/company"');
    expect(perDiem).toContain('href="/#/subscription"');
  });

  it('prefills a Spanish chat message naming the feature, delivered through the chat bus', () => {
    expect(premiumChatMessage('SincronizacionSAT')).toBe('Hola, me interesa contratar un plan que incluya la sincronización con el SAT.');
    const got: (string | undefined)[] = [];
    const off = onOpenSupportChat((req) => got.push(req.message));
    openSupportChat(premiumChatMessage('Colaboradores'));
    off();
    expect(got).toEqual(['Hola, me interesa contratar un plan que incluya los colaboradores de tu empresa.']);
  });
});
