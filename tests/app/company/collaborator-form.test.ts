// The 'Nuevo colaborador' / 'Editar' form logic: checks in the spec's order pointing at their field, the
// refund account grouped by type while typing, the bodies sent, and the tab chosen by the inner hash.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import {
  checkDraft,
  draftOf,
  editBody,
  EMPTY_COLLABORATOR,
  fieldOf,
  toInput,
  typedCorporateCard,
  typedRefundAccount,
  type CollaboratorDraft,
} from '../../../src/app/company/collaborator-form';
import { tabFromHash } from '../../../src/app/company/company-tab';

const CLABE = '032180000118359719';
const full: CollaboratorDraft = {
  email: 'ana@example.com',
  first_name: 'Ana',
  last_name: 'López',
  area_id: '3',
  corporate_card: '1234',
  account_type_for_refunds_id: '1',
  account_for_refunds: '032 180 00011835971 9',
  authorizer_id: '',
};

describe('collaborator form', () => {
  it('reports the first failing check in the spec order, at its field', () => {
    const steps: [Partial<CollaboratorDraft>, string, string][] = [
      [{}, MSG.collaboratorEmailRequired, 'email'],
      [{ email: 'ana@example.com' }, MSG.collaboratorFirstNameRequired, 'first_name'],
      [{ email: 'ana@example.com', first_name: 'Ana' }, MSG.collaboratorLastNameRequired, 'last_name'],
      [{ email: 'ana@example.com', first_name: 'Ana', last_name: 'López' }, MSG.collaboratorAreaRequired, 'area_id'],
      [{ email: 'ana@example.com', first_name: 'Ana', last_name: 'López', area_id: '3', corporate_card: '12' }, MSG.collaboratorCardRequired, 'corporate_card'],
      [{ ...full, account_type_for_refunds_id: '', account_for_refunds: '' }, MSG.collaboratorAccountTypeRequired, 'account_type_for_refunds_id'],
      [{ ...full, account_for_refunds: ' ' }, MSG.refundAccountRequired, 'account_for_refunds'],
      [{ ...full, email: 'ana@' }, MSG.emailInvalid, 'email'],
      [{ ...full, account_for_refunds: '032 180 00011835971 8' }, MSG.clabeInvalid, 'account_for_refunds'],
    ];
    for (const [d, message, field] of steps) {
      expect(checkDraft({ ...EMPTY_COLLABORATOR, ...d }, 'new')).toEqual({ message, field });
    }
    expect(checkDraft(full, 'new')).toBeNull();
  });

  it('checks an edit with the edit rules (e-mail not asked) plus the formats', () => {
    expect(checkDraft({ ...full, email: '' }, 'edit')).toBeNull();
    expect(checkDraft({ ...full, first_name: ' ' }, 'edit')).toEqual({ message: MSG.collaboratorFirstNameRequired, field: 'first_name' });
    expect(checkDraft({ ...full, area_id: '' }, 'edit')).toEqual({ message: MSG.collaboratorAreaRequired, field: 'area_id' });
    expect(checkDraft({ ...full, corporate_card: '12' }, 'edit')).toEqual({ message: MSG.corporateCardDigits, field: 'corporate_card' });
  });

  it('groups the refund account by its type as the user types, digits only', () => {
    expect(typedRefundAccount('1', CLABE)).toBe('032 180 00011835971 9');
    expect(typedRefundAccount('', `${CLABE}99`)).toBe('032 180 00011835971 9');
    expect(typedRefundAccount('1', '0321')).toBe('032 1');
    expect(typedRefundAccount('2', '4242-4242 4242x4242')).toBe('4242 4242 4242 4242');
    expect(typedRefundAccount('3', '(55) 1234-5678')).toBe('55 1234 5678');
    expect(typedCorporateCard('12a345')).toBe('1234');
  });

  it('builds the bodies: ids as numbers or null, the e-mail left out of an edit', () => {
    expect(toInput(full)).toMatchObject({ area_id: 3, account_type_for_refunds_id: 1, authorizer_id: null });
    expect(editBody({ ...full, authorizer_id: '7' })).not.toHaveProperty('email');
    expect(editBody({ ...full, authorizer_id: '7' }).authorizer_id).toBe(7);
    const back = draftOf({ id: 1, ...toInput(full), area: 'Ventas', status: 'invitado', rfc: null });
    expect(back).toEqual(full);
  });

  it('puts a server message at its field (duplicate e-mail at the e-mail), others nowhere', () => {
    expect(fieldOf(MSG.duplicatesSkipped)).toBe('email');
    expect(fieldOf(MSG.collaboratorAuthorizerInvalid)).toBe('authorizer_id');
    expect(fieldOf(MSG.generic)).toBeNull();
  });

  it('chooses the tab by #company-contributors / #company-areas, colaboradores by default', () => {
    expect(tabFromHash('company-areas')).toBe('company-areas');
    expect(tabFromHash('#company-areas')).toBe('company-areas');
    expect(tabFromHash('company-contributors')).toBe('company-contributors');
    expect(tabFromHash('')).toBe('company-contributors');
    expect(tabFromHash('otra')).toBe('company-contributors');
  });
});
