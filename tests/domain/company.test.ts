import { describe, expect, it } from 'vitest';
import {
  capitalizeWords,
  checkEditedCollaborator,
  checkNewCollaborator,
  checkPerDiem,
  checkRefundAccount,
  clabeCheckDigit,
  formatRefundAccount,
  isValidCardNumber,
  isValidClabe,
  isValidMexicanPhone,
  nextPerDiemStatus,
  normalizeCollaborator,
  normalizeDepartment,
  type CollaboratorInput,
} from '../../src/domain/company';
import { MSG } from '../../src/domain/messages';

// Public CLABE examples used in Banxico/bank documentation.
const CLABE = '032180000118359719';
const full: CollaboratorInput = {
  email: '  Ana.Lopez@Empresa.MX ',
  first_name: ' ana  maría ',
  last_name: 'lópez ÁVILA',
  area_id: 3,
  corporate_card: '4321',
  account_type_for_refunds_id: 1,
  account_for_refunds: CLABE,
  authorizer_id: null,
};

describe('CLABE', () => {
  it('computes the check digit with weights 3, 7, 1', () => {
    expect(clabeCheckDigit(CLABE.slice(0, 17))).toBe(9);
    expect(clabeCheckDigit('00201007777777777')).toBe(1);
  });
  it('accepts a valid CLABE with or without block spaces and refuses a wrong check digit or length', () => {
    expect(isValidClabe(CLABE)).toBe(true);
    expect(isValidClabe('032 180 00011835971 9')).toBe(true);
    expect(isValidClabe('032180000118359718')).toBe(false);
    expect(isValidClabe('03218000011835971')).toBe(false);
    expect(isValidClabe('03218000011835971a')).toBe(false);
  });
  it('is shown in blocks 3 3 11 1', () => {
    expect(formatRefundAccount(1, CLABE)).toBe('032 180 00011835971 9');
    expect(formatRefundAccount(null, CLABE)).toBe('032 180 00011835971 9');
  });
});

describe('refund accounts by type', () => {
  it('type 2 is a card number (Luhn), shown in groups of four', () => {
    expect(isValidCardNumber('4242424242424242')).toBe(true);
    expect(isValidCardNumber('4242424242424241')).toBe(false);
    expect(formatRefundAccount(2, '4242424242424242')).toBe('4242 4242 4242 4242');
    expect(checkRefundAccount(2, '4242 4242 4242 4241')).toBe(MSG.refundCardInvalid);
  });
  it('type 3 is a 10-digit Mexican phone, +52 allowed', () => {
    expect(isValidMexicanPhone('81 1234 5678')).toBe(true);
    expect(isValidMexicanPhone('+52 81 1234 5678')).toBe(true);
    expect(isValidMexicanPhone('812345678')).toBe(false);
    expect(isValidMexicanPhone('0112345678')).toBe(false);
    expect(formatRefundAccount(3, '+528112345678')).toBe('81 1234 5678');
    expect(checkRefundAccount(3, '12345')).toBe(MSG.refundPhoneInvalid);
  });
  it('type 1 or none is a CLABE', () => {
    expect(checkRefundAccount(1, '032180000118359718')).toBe(MSG.clabeInvalid);
    expect(checkRefundAccount(null, CLABE)).toBeNull();
    expect(checkRefundAccount(1, '  ')).toBe(MSG.refundAccountRequired);
  });
});

describe('new collaborator (spec §5, in order)', () => {
  it('passes a complete one', () => {
    expect(checkNewCollaborator(full)).toBeNull();
  });
  it('reports the first missing field, in the spec order', () => {
    const empty: CollaboratorInput = { email: '', first_name: '', last_name: '', area_id: null, corporate_card: '', account_type_for_refunds_id: null, account_for_refunds: '', authorizer_id: null };
    const steps: [Partial<CollaboratorInput>, string][] = [
      [{}, MSG.collaboratorEmailRequired],
      [{ email: 'a@b.mx' }, MSG.collaboratorFirstNameRequired],
      [{ first_name: 'Ana' }, MSG.collaboratorLastNameRequired],
      [{ last_name: 'Pérez' }, MSG.collaboratorAreaRequired],
      [{ area_id: 1 }, MSG.collaboratorCardRequired],
      [{ corporate_card: '123' }, MSG.collaboratorCardRequired],
      [{ corporate_card: '1234' }, MSG.collaboratorAccountTypeRequired],
      [{ account_type_for_refunds_id: 1 }, MSG.refundAccountRequired],
      [{ account_for_refunds: CLABE }, ''],
    ];
    let c = { ...empty };
    for (const [change, message] of steps) {
      c = { ...c, ...change };
      expect(checkNewCollaborator(c) ?? '').toBe(message);
    }
  });
  it('then checks formats: e-mail, 4-digit card, refund account', () => {
    expect(checkNewCollaborator({ ...full, email: 'ana@' })).toBe(MSG.emailInvalid);
    expect(checkNewCollaborator({ ...full, corporate_card: '12a4' })).toBe(MSG.corporateCardDigits);
    expect(checkNewCollaborator({ ...full, account_for_refunds: '032180000118359718' })).toBe(MSG.clabeInvalid);
  });
  it('edit needs first name, last name and department only', () => {
    expect(checkEditedCollaborator({ first_name: 'Ana', last_name: ' ', area_id: 1 })).toBe(MSG.collaboratorLastNameRequired);
    expect(checkEditedCollaborator({ first_name: 'Ana', last_name: 'Paz', area_id: null })).toBe(MSG.collaboratorAreaRequired);
    expect(checkEditedCollaborator({ first_name: 'Ana', last_name: 'Paz', area_id: 2 })).toBeNull();
  });
  it('normalises what is stored', () => {
    const n = normalizeCollaborator(full);
    expect(n.email).toBe('ana.lopez@empresa.mx');
    expect(n.first_name).toBe('Ana María');
    expect(n.last_name).toBe('López Ávila');
    expect(n.account_for_refunds).toBe('032 180 00011835971 9');
  });
});

describe('departments', () => {
  it('are trimmed, lowercased then capitalised; empty is ignored', () => {
    expect(normalizeDepartment('  VENTAS   nacionales ')).toBe('Ventas nacionales');
    expect(normalizeDepartment('   ')).toBe('');
    expect(capitalizeWords('JOSÉ   ángel')).toBe('José Ángel');
  });
});

describe('per-diem events', () => {
  const today = '2026-11-23';
  const ok = { event_name: 'Congreso Monterrey', start_date: today, end_date: '2026-11-25', area_id: 1, deposit: '1500.50', notes: '' };
  it('needs a numeric deposit and a start date today or later', () => {
    expect(checkPerDiem(ok, today)).toBeNull();
    expect(checkPerDiem({ ...ok, deposit: '' }, today)).toBe(MSG.perDiemDepositRequired);
    expect(checkPerDiem({ ...ok, deposit: 'mil' }, today)).toBe(MSG.perDiemDepositNumeric);
    expect(checkPerDiem({ ...ok, deposit: '0' }, today)).toBe(MSG.perDiemDepositNumeric);
    expect(checkPerDiem({ ...ok, start_date: '2026-11-22' }, today)).toBe(MSG.perDiemStartPast);
    expect(checkPerDiem({ ...ok, end_date: '2026-11-22', start_date: today }, today)).toBe(MSG.perDiemEndBeforeStart);
  });
  it('moves open → approved → closed, nothing else', () => {
    expect(nextPerDiemStatus('open', 'approve')).toBe('approved');
    expect(nextPerDiemStatus('approved', 'close')).toBe('closed');
    expect(nextPerDiemStatus('open', 'close')).toBeNull();
    expect(nextPerDiemStatus('closed', 'approve')).toBeNull();
  });
});
