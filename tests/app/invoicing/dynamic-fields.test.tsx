// How each field type renders (spec §5): label and help button below type 10, the select placeholder,
// the min-length hint, type 11 as a label, numeric inputs with min 1 / step 0.01, and the error at its field.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DynamicFields } from '../../../src/app/invoicing/fields/dynamic-fields';
import { MSG } from '../../../src/domain/messages';
import { FIELDS } from './fixtures';

const render = (error: { form_configuration_id: number; message: string } | null = null) =>
  renderToStaticMarkup(
    <DynamicFields fields={FIELDS} values={{ 1: '12', 5: '' }} onChange={() => undefined} error={error} registerRef={() => () => undefined} />,
  );

describe('DynamicFields', () => {
  it('labels every input and offers a help button for types below 10', () => {
    const html = render();
    for (const name of ['Número de ticket', 'Folio', 'Fecha', 'Referencia de pago', 'Sucursal', 'Importe', 'XXX']) {
      expect(html).toContain(`>${name}</label>`);
      expect(html).toContain(`aria-label="Ayuda: ${name}"`);
    }
    expect(html).toContain('<p class="dyn-fields__label">Los datos vienen al pie de tu ticket</p>');
    expect(html).not.toContain('Ayuda: Los datos vienen');
  });

  it('type 8 starts on the placeholder option, type 1 min 1, type 9 step 0.01, type 7 numeric', () => {
    const html = render();
    expect(html).toContain('<option value="" selected="">- Selecciona una opción -</option>');
    expect(html).toContain('<option value="11">Centro</option>');
    expect(html).toMatch(/type="number" min="1" step="1" inputMode="numeric"[^>]*value="12"/);
    expect(html).toMatch(/type="number" min="0" step="0.01" inputMode="decimal"/);
    expect(html).toMatch(/inputMode="numeric" maxLength="29" placeholder="0000 0000 0000 0000 0000 0000"/);
  });

  it('shows the min-length hint and the error at its own field, announced', () => {
    const html = render({ form_configuration_id: 2, message: '6 caracteres mínimo' });
    expect(html).toContain('6 caracteres mínimo</p>');
    expect(html).toMatch(/aria-invalid="true" aria-describedby="[^"]*-hint [^"]*-error"/);
    expect(html.match(/aria-invalid="true"/g)).toHaveLength(1);
    const other = render({ form_configuration_id: 1, message: MSG.fieldWholeNumber });
    expect(other).toContain(MSG.fieldWholeNumber);
  });
});
