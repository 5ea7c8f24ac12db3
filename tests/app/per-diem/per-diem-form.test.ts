// The 'Nuevo evento' form logic: checks in the spec's order pointing at their field (deposit numeric and
// required, start today or later), the body sent, the helpers that keep the draft consistent, and what a
// row offers and shows after closing.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import {
  actionOf,
  checkDraft,
  cleanDeposit,
  closingBalance,
  emptyDraft,
  fieldOf,
  toBody,
  withCollaborator,
  withStart,
  type PerDiemDraft,
} from '../../../src/app/per-diem/per-diem-form';

const TODAY = '2026-11-23';
const full: PerDiemDraft = { ...emptyDraft(TODAY), event_name: 'Expo', end_date: '2026-11-25', deposit: '1500' };

describe('per-diem form', () => {
  it('starts empty on today', () => {
    expect(emptyDraft(TODAY)).toEqual({ event_name: '', start_date: TODAY, end_date: TODAY, area_id: '', collaborator_id: '', deposit: '', notes: '' });
  });

  it('checks in the rule order, each message at its field', () => {
    const cases: [Partial<PerDiemDraft>, string, string][] = [
      [{ event_name: ' ', deposit: '' }, MSG.perDiemNameRequired, 'event_name'],
      [{ deposit: '  ' }, MSG.perDiemDepositRequired, 'deposit'],
      [{ deposit: 'mil' }, MSG.perDiemDepositNumeric, 'deposit'],
      [{ deposit: '1.234' }, MSG.perDiemDepositNumeric, 'deposit'],
      [{ deposit: '0' }, MSG.perDiemDepositNumeric, 'deposit'],
      [{ start_date: '' }, MSG.perDiemStartRequired, 'start_date'],
      [{ start_date: '2026-11-22' }, MSG.perDiemStartPast, 'start_date'],
      [{ end_date: '2026-11-22' }, MSG.perDiemEndBeforeStart, 'end_date'],
    ];
    for (const [over, message, field] of cases) expect(checkDraft({ ...full, ...over }, TODAY)).toEqual({ field, message });
    expect(checkDraft(full, TODAY)).toBeNull();
    expect(checkDraft({ ...full, start_date: TODAY, end_date: '' }, TODAY)).toBeNull();
  });

  it('reads a deposit typed with a $ and thousands separators', () => {
    expect(cleanDeposit(' $1,500.50 ')).toBe('1500.50');
    expect(cleanDeposit('12,000')).toBe('12000');
    expect(cleanDeposit('12abc')).toBe('12abc');
    expect(checkDraft({ ...full, deposit: '$2,500' }, TODAY)).toBeNull();
  });

  it('sends ids as numbers, trimmed texts and the end defaulting to the start', () => {
    expect(toBody({ ...full, event_name: ' Expo ', area_id: '4', collaborator_id: '', end_date: '', notes: ' hotel ', deposit: '$1,000' })).toEqual({
      event_name: 'Expo',
      start_date: TODAY,
      end_date: TODAY,
      area_id: 4,
      collaborator_id: null,
      deposit: '1000',
      notes: 'hotel',
    });
  });

  it('maps server messages to fields; unknown ones are shown apart', () => {
    expect(fieldOf(MSG.perDiemAreaInvalid)).toBe('area_id');
    expect(fieldOf(MSG.perDiemCollaboratorInvalid)).toBe('collaborator_id');
    expect(fieldOf(MSG.featureLocked)).toBeNull();
  });

  it("fills the collaborator's department only when none is chosen, and keeps the end after the start", () => {
    const areaOf = (id: number) => (id === 7 ? 3 : null);
    expect(withCollaborator(full, '7', areaOf)).toMatchObject({ collaborator_id: '7', area_id: '3' });
    expect(withCollaborator({ ...full, area_id: '9' }, '7', areaOf)).toMatchObject({ collaborator_id: '7', area_id: '9' });
    expect(withCollaborator(full, '', areaOf)).toMatchObject({ collaborator_id: '', area_id: '' });
    expect(withStart(full, '2026-11-30')).toMatchObject({ start_date: '2026-11-30', end_date: '2026-11-30' });
    expect(withStart(full, '2026-11-24')).toMatchObject({ start_date: '2026-11-24', end_date: '2026-11-25' });
  });

  it('offers Aprobar while open, Cerrar evento once approved, and the balance after closing', () => {
    expect([actionOf('open'), actionOf('approved'), actionOf('closed')]).toEqual(['approve', 'close', null]);
    expect(closingBalance({ authorized_total: 450, spent_total: 500.25 })).toBe(-50.25);
    expect(closingBalance({ authorized_total: 1000, spent_total: 250.1 })).toBe(749.9);
    expect(closingBalance({ authorized_total: null, spent_total: null })).toBeNull();
  });
});
