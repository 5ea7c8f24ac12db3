// The SAT sync page's rules (spec §4 SAT sync, §5, §6, §9): which screen, the password checks in their
// order, the e.firma file checks, the status texts and the 'last sync' date format.
import { describe, expect, it } from 'vitest';
import { checkEfirma, checkSatPassword, isConnected, lastConnectionText, lastResultText, offeredMethods, showsSyncStarted, SYNC_TXT } from '../../../src/app/sat-sync/sync-model';
import { lastSyncDate } from '../../../src/domain/dates';
import { MSG } from '../../../src/domain/messages';
import { EFIRMA_FILE_MAX_BYTES, satSyncView } from '../../../src/domain/sat-sync';

const PERSON = 'GODE561231GR8';
const COMPANY = 'EKU9003173C9';

describe('which screen the sync route shows', () => {
  it('advert without SincronizacionSAT, company notice for 12-character RFCs that have it, else the page', () => {
    expect(satSyncView({ plan_id: 1, rfc: PERSON, subscription_id: null })).toBe('advert');
    expect(satSyncView({ plan_id: 2, rfc: PERSON, subscription_id: null })).toBe('page');
    expect(satSyncView({ plan_id: 3, rfc: PERSON, subscription_id: null })).toBe('page');
    expect(satSyncView({ plan_id: 0, rfc: PERSON, subscription_id: null })).toBe('page');
    // Plans 2/3 do not unlock it for a company; plans 4/5 do, and then the company notice applies.
    expect(satSyncView({ plan_id: 2, rfc: COMPANY, subscription_id: null })).toBe('advert');
    expect(satSyncView({ plan_id: 4, rfc: COMPANY, subscription_id: null })).toBe('company');
    expect(satSyncView({ plan_id: 1, rfc: PERSON, subscription_id: 2 })).toBe('page');
    expect(satSyncView({ plan_id: 1, rfc: COMPANY, subscription_id: 3 })).toBe('company');
  });
});

describe('SAT password checks (spec §5), in order', () => {
  it('empty first (password, then confirmation), then length, then equality', () => {
    expect(checkSatPassword('', '')).toEqual({ field: 'password', message: MSG.satPasswordEmpty });
    // empty wins over a mismatch
    expect(checkSatPassword('', 'abcdefgh')).toEqual({ field: 'password', message: MSG.satPasswordEmpty });
    expect(checkSatPassword('abcdefgh', '')).toEqual({ field: 'confirm', message: MSG.satPasswordEmpty });
    // length wins over a mismatch
    expect(checkSatPassword('abc', 'xyz')).toEqual({ field: 'password', message: MSG.satPasswordLength });
    expect(checkSatPassword('a'.repeat(65), 'a'.repeat(65))).toEqual({ field: 'password', message: MSG.satPasswordLength });
    expect(checkSatPassword('abcdefgh', 'abcdefgH')).toEqual({ field: 'confirm', message: MSG.satPasswordsDiffer });
    expect(MSG.satPasswordsDiffer).toBe('La contraseña y su confirmación no coinciden.');
    expect(checkSatPassword('abcdefgh', 'abcdefgh')).toBeNull();
    expect(checkSatPassword('a'.repeat(64), 'a'.repeat(64))).toBeNull();
  });
});

describe('e.firma checks before sending', () => {
  const file = (name: string, size: number) => new File([new Uint8Array(size)], name);
  it('asks for all three parts and rejects files too big to be a certificate or a key', () => {
    const cer = file('a.cer', 1500);
    const key = file('a.key', 1300);
    expect(checkEfirma({ cer: null, key, password: 'x' })).toEqual({ field: 'cer', message: MSG.efirmaMissing });
    expect(checkEfirma({ cer, key: null, password: 'x' })).toEqual({ field: 'key', message: MSG.efirmaMissing });
    expect(checkEfirma({ cer, key, password: '' })).toEqual({ field: 'password', message: MSG.efirmaMissing });
    expect(checkEfirma({ cer: file('big.cer', EFIRMA_FILE_MAX_BYTES + 1), key, password: 'x' })).toEqual({ field: 'cer', message: MSG.efirmaFileTooBig });
    expect(checkEfirma({ cer, key: file('big.key', EFIRMA_FILE_MAX_BYTES + 1), password: 'x' })).toEqual({ field: 'key', message: MSG.efirmaFileTooBig });
    expect(checkEfirma({ cer: file('a.cer', EFIRMA_FILE_MAX_BYTES), key, password: 'x' })).toBeNull();
  });
});

describe('status texts', () => {
  const status = { method: null, methods: ['ciec' as const], last_imported: null, last_error: null };
  it("'Conexión activa' with a saved password or e.firma, 'Sin conexión' without; the server's status wins once known", () => {
    expect(isConnected({ ciec: false }, undefined)).toBe(false);
    expect(isConnected({ ciec: true }, undefined)).toBe(true);
    expect(isConnected({ ciec: true }, status)).toBe(false);
    expect(isConnected({ ciec: false }, { ...status, method: 'efirma' })).toBe(true);
    expect([SYNC_TXT.connected, SYNC_TXT.disconnected]).toEqual(['Conexión activa', 'Sin conexión']);
  });

  it('says what the last sync brought, or its error', () => {
    expect(lastResultText(status)).toBeNull();
    expect(lastResultText({ ...status, last_imported: 0 })).toContain('no encontró');
    expect(lastResultText({ ...status, last_imported: 1 })).toBe('La última sincronización trajo 1 comprobante nuevo.');
    expect(lastResultText({ ...status, last_imported: 12 })).toBe('La última sincronización trajo 12 comprobantes nuevos.');
    expect(lastResultText({ ...status, last_imported: 12, last_error: MSG.satSyncFailed })).toBe(MSG.satSyncFailed);
  });

  it('offers the methods the server accepts; both while that is unknown', () => {
    expect(offeredMethods(undefined)).toEqual(['ciec', 'efirma']);
    expect(offeredMethods({ methods: ['efirma'] })).toEqual(['efirma']);
  });
});

describe("last sync date 'MMMM DD del YYYY a las h:mm a' (spec §9), Mexico City time", () => {
  it('formats in Spanish with a 12-hour clock', () => {
    // 21:07 UTC = 15:07 in Mexico City (UTC-6)
    expect(lastSyncDate('2026-11-05T21:07:00.000Z')).toBe('noviembre 05 del 2026 a las 3:07 pm');
    // 06:30 UTC on 1 January = 00:30 on 1 January there: midnight is 12 am
    expect(lastSyncDate('2027-01-01T06:30:00.000Z')).toBe('enero 01 del 2027 a las 12:30 am');
    // 05:59 UTC on 1 January is still 31 December, 11:59 pm
    expect(lastSyncDate(new Date(Date.UTC(2027, 0, 1, 5, 59)))).toBe('diciembre 31 del 2026 a las 11:59 pm');
    // noon is 12 pm
    expect(lastSyncDate('2026-03-15T18:00:00.000Z')).toBe('marzo 15 del 2026 a las 12:00 pm');
    // before Mexico dropped daylight saving (summer 2021: UTC-5)
    expect(lastSyncDate('2021-07-10T14:05:00.000Z')).toBe('julio 10 del 2021 a las 9:05 am');
    expect(lastConnectionText(null)).toBe(SYNC_TXT.never);
    expect(lastConnectionText('2026-11-05T21:07:00.000Z')).toBe('noviembre 05 del 2026 a las 3:07 pm');
  });
});

describe('after saving, the status card says the sync started', () => {
  const SAVED = 1_000;
  it('until a status read after the save shows that sync done; nothing when nothing was saved here', () => {
    expect(showsSyncStarted(null, { running: true }, 2_000)).toBe(false);
    // The status on screen is from before the save: still under way as far as we know.
    expect(showsSyncStarted(SAVED, { running: false }, 500)).toBe(true);
    expect(showsSyncStarted(SAVED, undefined, 0)).toBe(true);
    // Read after the save: queued or running, then done.
    expect(showsSyncStarted(SAVED, { running: true }, 1_500)).toBe(true);
    expect(showsSyncStarted(SAVED, { running: false }, 1_500)).toBe(false);
  });
});
