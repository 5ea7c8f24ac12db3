// The register wizard's parts (static render): the step list marks done and current steps, the password
// meter reads 'Sin calcular' until scored, the summary shows the account as it will be, and the nav bar
// offers 'Crear cuenta' only on the last step.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AccountStep, ConfirmSummary, StepList, WizardNav } from '../../../src/app/register/register-steps';
import { EMPTY_REGISTER_FORM } from '../../../src/app/register/wizard';
import { MSG } from '../../../src/domain/messages';

const noop = () => undefined;
const fields = { form: EMPTY_REGISTER_FORM, set: noop, err: () => null, reg: () => noop };

describe('register wizard parts', () => {
  it('lists the four steps, the current one marked and the earlier ones done', () => {
    const html = renderToStaticMarkup(<StepList step="tax" current={2} />);
    expect(html).toContain('aria-label="Pasos del registro"');
    expect(html.match(/steps__item--done/g)).toHaveLength(2);
    expect(html).toContain('aria-current="step"');
  });

  it("the password meter says 'Sin calcular' until the password is scored", () => {
    const html = renderToStaticMarkup(<AccountStep {...fields} score={null} availability={{ username: '', state: 'idle' }} />);
    expect(html).toContain('aria-valuetext="Sin calcular"');
    expect(html).toContain('Nombre de usuario');
    expect(html).toContain('Confirma tu contraseña');
  });

  it('shows the user name as it will be saved while it is typed, and says when it is taken or free', () => {
    const typed = { ...fields, form: { ...EMPTY_REGISTER_FORM, username: 'Lupita Gómez' } };
    const taken = renderToStaticMarkup(<AccountStep {...typed} score={null} availability={{ username: 'lupita.gomez', state: 'taken' }} />);
    expect(taken).toContain('value="Lupita Gómez"');
    expect(taken).toContain('Tu usuario será: <strong class="username-hint__name">lupita.gomez</strong>');
    expect(taken).toContain(MSG.usernameTaken);
    expect(taken).toContain('aria-invalid="true"');
    const free = renderToStaticMarkup(<AccountStep {...typed} score={null} availability={{ username: 'lupita.gomez', state: 'available' }} />);
    expect(free).toContain('Está libre');
    expect(free).not.toContain(MSG.usernameTaken);
  });

  it('shows código postal and régimen on the confirmation, or that they can be added later', () => {
    const tax = { ...EMPTY_REGISTER_FORM.tax, type: 'persona' as const, rfc: 'GOML800101AB1', firstName: 'Lupita', lastName: 'Gómez' };
    const filled = renderToStaticMarkup(<ConfirmSummary form={{ ...EMPTY_REGISTER_FORM, username: 'Lupita Gómez', tax: { ...tax, postalCode: '64000', taxRegime: '612' } }} />);
    expect(filled).toContain('<dd>lupita.gomez</dd>');
    expect(filled).toContain('Código postal</dt><dd class="tabular">64000</dd>');
    expect(filled).toContain('612 · Personas Físicas con Actividades Empresariales y Profesionales');
    const empty = renderToStaticMarkup(<ConfirmSummary form={{ ...EMPTY_REGISTER_FORM, tax }} />);
    expect(empty.match(/Sin capturar/g)).toHaveLength(2);
  });

  it('sums up a company account, and offers Crear cuenta only on the last step', () => {
    const form = { ...EMPTY_REGISTER_FORM, username: 'ana', email: 'ana@example.com', tax: { ...EMPTY_REGISTER_FORM.tax, type: 'empresa' as const, rfc: 'AAA010101AAA', name: 'Acme' } };
    const summary = renderToStaticMarkup(<ConfirmSummary form={form} />);
    expect(summary).toContain('Empresa (persona moral)');
    expect(summary).toContain('Razón Social');
    expect(summary).toContain('México');
    expect(renderToStaticMarkup(<WizardNav current={0} last={false} busy={false} canCreate={false} onBack={noop} />)).toContain('Siguiente');
    const last = renderToStaticMarkup(<WizardNav current={3} last busy={false} canCreate={false} onBack={noop} />);
    expect(last).toContain('Crear cuenta');
    expect(last).toContain('Atrás');
  });
});
