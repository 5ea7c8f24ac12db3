import { afterEach, describe, expect, it } from 'vitest';
import { getToasts, toast } from '../../../src/app/ui/toast-store';

afterEach(() => toast.clear());

describe('toast store: problems that outlive their moment', () => {
  it('closes the errors and warnings shown before the given moment, and keeps the rest', () => {
    toast.error('No pudimos guardar.');
    toast.warning('Revisa el RFC.');
    toast.info('Lista para usarse sin conexión');
    toast.success('Tu información se actualizó con éxito...');
    toast.dismissProblems(performance.now() + 1);
    expect(getToasts().map((t) => t.variant).sort()).toEqual(['info', 'success']);
  });

  it('keeps an error shown after that moment (the one the latest edit or screen reports)', () => {
    const before = performance.now() - 1000;
    toast.error('Usuario o contraseña incorrectos.');
    toast.dismissProblems(before);
    expect(getToasts().map((t) => t.message)).toEqual(['Usuario o contraseña incorrectos.']);
  });
});
