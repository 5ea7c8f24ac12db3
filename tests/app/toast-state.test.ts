import { describe, expect, it } from 'vitest';
import { TOAST_TIMEOUT_MS, toastReducer, type Toast } from '../../src/app/ui/toast-state';

const t = (id: number, message: string, variant: Toast['variant'] = 'error'): Toast => ({ id, variant, message });

describe('toasts (spec §9)', () => {
  it('shows the newest first', () => {
    let s = toastReducer([], { type: 'add', toast: t(1, 'uno') });
    s = toastReducer(s, { type: 'add', toast: t(2, 'dos') });
    expect(s.map((x) => x.message)).toEqual(['dos', 'uno']);
  });

  it('never shows the same toast twice: a repeat moves to the top', () => {
    let s = toastReducer([], { type: 'add', toast: t(1, 'uno') });
    s = toastReducer(s, { type: 'add', toast: t(2, 'dos') });
    s = toastReducer(s, { type: 'add', toast: t(3, 'uno') });
    expect(s).toEqual([t(3, 'uno'), t(2, 'dos')]);
  });

  it('the same text with another variant is a different toast', () => {
    let s = toastReducer([], { type: 'add', toast: t(1, 'uno', 'error') });
    s = toastReducer(s, { type: 'add', toast: t(2, 'uno', 'info') });
    expect(s).toHaveLength(2);
  });

  it('closes one by id, or all', () => {
    let s = toastReducer([], { type: 'add', toast: t(1, 'uno') });
    s = toastReducer(s, { type: 'add', toast: t(2, 'dos') });
    expect(toastReducer(s, { type: 'dismiss', id: 1 })).toEqual([t(2, 'dos')]);
    expect(toastReducer(s, { type: 'clear' })).toEqual([]);
  });

  it('times out after 20000 ms', () => {
    expect(TOAST_TIMEOUT_MS).toBe(20_000);
  });
});
