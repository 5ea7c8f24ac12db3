// What the "Pendientes de envío" view says about each queued operation (DESIGN §4), and the
// logout warning when unsent work would be lost.
import type { OutboxOp } from '../../domain/outbox-ops';

export const OUTBOX_TITLE = 'Pendientes de envío';
export const AUTH_PAUSED_TEXT = 'Inicia sesión para enviar tus cambios pendientes.';

export function opStateLabel(op: Pick<OutboxOp, 'status' | 'lastError'>): string {
  switch (op.status) {
    case 'inflight':
      return 'Enviando';
    case 'failed':
      return `No se pudo enviar: ${op.lastError ?? 'el servidor no aceptó el cambio.'}`;
    default:
      return 'En espera';
  }
}

/** Only operations the server refused wait for the user (retry or discard); the rest retry alone. */
export function needsUser(op: Pick<OutboxOp, 'status'>): boolean {
  return op.status === 'failed';
}

export function outboxButtonLabel(count: number): string {
  return count === 1 ? '1 cambio pendiente de envío' : `${count} cambios pendientes de envío`;
}

export function logoutWarning(count: number): string {
  const what = count === 1 ? '1 cambio' : `${count} cambios`;
  return `Tienes ${what} sin enviar. Si sales ahora se perderán. ¿Salir de todos modos?`;
}

export const DISCARD_CONFIRM = 'Este cambio no se enviará y se perderá en este teléfono. ¿Descartarlo?';
