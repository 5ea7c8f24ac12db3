// The top bar's period picker appears only on the screens that read the period.
import { describe, expect, it } from 'vitest';
import { periodPickerFor } from '../../src/app/signed-in-layout';

describe('periodPickerFor', () => {
  it('the month and year on the dashboard and the company expense view', () => {
    for (const path of ['/', '/home', '/home/', '/company-view']) expect(periodPickerFor(path)).toBe('month');
  });

  it('the year only on the annual view', () => {
    expect(periodPickerFor('/annual')).toBe('year');
  });

  it('none on screens that do not use a period', () => {
    for (const path of ['/plans', '/subscription', '/edit-invoicement', '/add-client', '/sync', '/company', '/per-diem', '/ticket/new', '/ticket/form/autozone', '/support', '/verify-rfc', '/nada']) {
      expect(periodPickerFor(path)).toBeNull();
    }
  });
});
