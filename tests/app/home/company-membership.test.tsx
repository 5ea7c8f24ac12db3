// The collaborator's company on the dashboard and in the Empresa screens: the company by name, the RFC it
// sees, department and authorizer when known, and every name escaped.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MembershipCard } from '../../../src/app/home/company-membership';
import type { Collaboration } from '../../../src/domain/company';
import { CollaboratorNotice, collaborationDetails } from '../../../src/app/feature-gates/collaborations';

const acme: Collaboration = {
  company_name: 'Ferretería <img src=x onerror=alert(1)> SA', company_rfc: 'FER010101AB1', rfc: 'GOMA800101AB1', area: 'Compras', authorizer: 'Ana López', since: null,
};
const other: Collaboration = { company_name: 'Otra SA', company_rfc: 'OTR010101AB1', rfc: 'GOMA800101ZZ9', area: '', authorizer: '', since: null };

describe('company membership', () => {
  it('says nothing to someone who collaborates with no company', () => {
    expect(renderToStaticMarkup(<MembershipCard collaborations={[]} rfc="GOMA800101AB1" />)).toBe('');
  });

  it('names the company of the selected RFC first, what it sees, and the details', () => {
    const html = renderToStaticMarkup(<MembershipCard collaborations={[other, acme]} rfc="GOMA800101AB1" />);
    expect(html).toContain('aria-label="Tu empresa"');
    expect(html).toContain('Colaboras con <strong>Ferretería &lt;img src=x onerror=alert(1)&gt; SA</strong>: ve las facturas que recibes con este RFC');
    expect(html).not.toContain('<img');
    expect(html).toContain('Departamento: Compras · Autoriza tus gastos: Ana López');
    expect(html.indexOf('Ferretería')).toBeLessThan(html.indexOf('Otra SA'));
    expect(html).toContain('Con tu RFC GOMA800101ZZ9 colaboras con <strong>Otra SA</strong>.');
  });

  it('leaves out the details the company did not fill', () => {
    expect(collaborationDetails(other)).toBe('');
    expect(collaborationDetails({ ...acme, area: '' })).toBe('Autoriza tus gastos: Ana López');
  });

  it('explains the Empresa screens to a collaborator, with a way to the dashboard', () => {
    const one = renderToStaticMarkup(<CollaboratorNotice collaborations={[acme]} />);
    expect(one).toContain('Eres colaborador de Ferretería &lt;img');
    expect(one).toContain('los administra tu empresa desde su propia cuenta');
    expect(one).toContain('href="/#/"');
    expect(one).toContain('Ir a mi Dashboard');
    const two = renderToStaticMarkup(<CollaboratorNotice collaborations={[acme, other]} />);
    expect(two).toContain('Eres colaborador de varias empresas');
    expect(two).toContain('Otra SA');
  });
});
