// The register wizard's parts (static render): the step list marks done and current steps, the password
// meter reads 'Sin calcular' until scored, the summary shows the account as it will be, and the nav bar
// offers 'Crear cuenta' only on the last step.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AccountStep, ConfirmSummary, StepList, WizardNav } from '../../../src/app/register/register-steps';
import { EMPTY_REGISTER_FORM } from '../../../src/app/register/wizard';

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
    const html = renderToStaticMarkup(<AccountStep {...fields} score={null} blurMismatch={false} onBlurMismatch={noop} />);
    expect(html).toContain('aria-valuetext="Sin calcular"');
    expect(html).toContain('Nombre de usuario');
    expect(html).toContain('Confirma tu contraseña');
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
