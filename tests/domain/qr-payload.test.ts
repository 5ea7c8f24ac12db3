import { describe, expect, it } from 'vitest';
import { merchantTicketQrUrl, parseScannedQr } from '../../src/domain/qr-payload';

describe('scanned QR payloads', () => {
  it('round-trips a merchant ticket QR', () => {
    const url = merchantTicketQrUrl('https://app.cuentasclaras.mx/', { short_name: 'autozone', ref: 'AB12CD34EF56GH78', check: 'K9Q2', total: '1234.50' });
    expect(url).toBe('https://app.cuentasclaras.mx/#/merchant/autozone?ref=AB12CD34EF56GH78&check=K9Q2&total=1234.50');
    expect(parseScannedQr(url)).toEqual({ kind: 'merchant', short_name: 'autozone', ref: 'AB12CD34EF56GH78', check: 'K9Q2', total: '1234.50' });
  });
  it("reads SAT's verification QR", () => {
    const sat = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=5fb2822e-396d-4725-8521-cdc4bdd20ccf&re=EKU9003173C9&rr=XIQB891116QE4&tt=1160.00&fe=Ns3KZQ==';
    expect(parseScannedQr(sat)).toEqual({ kind: 'cfdi', uuid: '5FB2822E-396D-4725-8521-CDC4BDD20CCF', re: 'EKU9003173C9', rr: 'XIQB891116QE4', tt: '1160.00', fe: 'Ns3KZQ==' });
  });
  it('refuses tampered or foreign payloads', () => {
    for (const bad of [
      'hola',
      'javascript:alert(1)',
      'https://app.cuentasclaras.mx/#/merchant/autozone?ref=AB12&check=K9Q2&total=1.00',
      'https://app.cuentasclaras.mx/#/merchant/autozone?ref=AB12CD34EF56GH78&check=K9Q2&total=12',
      'https://app.cuentasclaras.mx/#/merchant/../login?ref=AB12CD34EF56GH78&check=K9Q2&total=1.00',
      'https://app.cuentasclaras.mx/#/plans',
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=nope&re=EKU9003173C9&rr=XIQB891116QE4&tt=1',
      `https://x.mx/#/merchant/a?ref=${'A'.repeat(3000)}`,
    ])
      expect(parseScannedQr(bad)).toBeNull();
  });
});
