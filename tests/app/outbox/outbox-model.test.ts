import { describe, expect, it } from 'vitest';
import { logoutWarning, needsUser, opStateLabel, outboxButtonLabel } from '../../../src/app/outbox/outbox-model';

describe('the "Pendientes de envío" view', () => {
  it('names each state', () => {
    expect(opStateLabel({ status: 'pending', lastError: 'Sin conexión' })).toBe('En espera');
    expect(opStateLabel({ status: 'inflight', lastError: null })).toBe('Enviando');
    expect(opStateLabel({ status: 'failed', lastError: 'Este ticket ya no existe.' })).toBe('No se pudo enviar: Este ticket ya no existe.');
  });

  it('asks the user only about refused operations', () => {
    expect(needsUser({ status: 'failed' })).toBe(true);
    expect(needsUser({ status: 'pending' })).toBe(false);
  });

  it('counts in Spanish', () => {
    expect(outboxButtonLabel(1)).toBe('1 cambio pendiente de envío');
    expect(outboxButtonLabel(3)).toBe('3 cambios pendientes de envío');
  });

  it('warns before logging out with unsent work', () => {
    expect(logoutWarning(3)).toBe('Tienes 3 cambios sin enviar. Si sales ahora se perderán. ¿Salir de todos modos?');
    expect(logoutWarning(1)).toBe('Tienes 1 cambio sin enviar. Si sales ahora se perderán. ¿Salir de todos modos?');
  });
});
