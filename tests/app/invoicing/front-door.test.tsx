// The signed-out start says whose site this is, and a successful request leaves links to its ticket and PDF.
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { anonymousFormTitle, FrontDoorIntro, FRONT_DOOR_TXT } from '../../../src/app/invoicing/anonymous-form/front-door';
import { InvoiceDone } from '../../../src/app/invoicing/form-parts/invoice-done';
import { merchantByShortName } from '../../../src/domain/merchants';

/** Renders `node` inside a router (Link needs one). */
async function html(node: React.ReactNode): Promise<string> {
  const router = createRouter({ routeTree: createRootRoute({ component: () => node }), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  return renderToString(<RouterProvider router={router} />);
}

describe('front door', () => {
  it('says what Cuentas Claras does, three benefits, and the two ways in', async () => {
    const out = await html(<FrontDoorIntro />);
    expect(out).toContain(FRONT_DOOR_TXT.lead);
    expect(out.match(/<li>/g)).toHaveLength(3);
    expect(out).toMatch(/href="\/register"[^>]*>Crear cuenta gratis</);
    expect(out).toMatch(/href="\/login"[^>]*>Iniciar sesión</);
  });

  it("titles Móvil Norte's form as a recharge, any other merchant's as a ticket", () => {
    expect(anonymousFormTitle(merchantByShortName('movil-norte')!)).toBe('Factura tu recarga de Móvil Norte sin crear cuenta');
    expect(anonymousFormTitle({ name: 'Autozone', short_name: 'autozone' })).toBe('Factura tu ticket de Autozone sin crear cuenta');
  });
});

describe('a successful invoice request', () => {
  it('links to its ticket and, when given, to its PDF', async () => {
    const both = await html(<InvoiceDone done={{ message: 'Factura enviada exitosamente.', ticketRef: 'ABC 12/3', pdfHref: '/api/v33/invoice_requests/r1/pdf' }} onClose={() => undefined} />);
    expect(both).toContain('role="status"');
    expect(both).toContain('Factura enviada exitosamente.');
    expect(both).toMatch(/href="\/tickets\?ref=ABC(%20|\+)12(%2F|\/)3"[^>]*>Ver ticket</);
    expect(both).toMatch(/href="\/api\/v33\/invoice_requests\/r1\/pdf"[^>]*>Descargar PDF</);
    const ticketOnly = await html(<InvoiceDone done={{ message: 'Tu factura fue generada.', ticketRef: 'R1' }} onClose={() => undefined} />);
    expect(ticketOnly).toContain('Ver ticket');
    expect(ticketOnly).not.toContain('Descargar PDF');
  });
});
