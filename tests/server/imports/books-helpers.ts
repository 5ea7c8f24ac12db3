// Shared by the books tests (books.test.ts, reclassify.test.ts): the USD fixture with a timbre, the
// shape of a month's expected totals, and exact sums of decimal strings.
import { fixture, utf8 } from './import-helpers';

/** The USD fixture (signed, no timbre) with a TFD added: 3,248.00 USD × 18.9008 = 61,389.80 MXN. */
export function usdStamped(): Uint8Array {
  const xml = new TextDecoder()
    .decode(fixture('cfdi40-ingreso-usd-tipocambio-unstamped.xml'))
    .replace(
      '</cfdi:Comprobante>',
      '<cfdi:Complemento><tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" Version="1.1" UUID="a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d" FechaTimbrado="2023-06-18T19:30:00" RfcProvCertif="SPR190613I52" SelloCFD="c2VsbG8=" NoCertificadoSAT="30001000000500003456" SelloSAT="c2F0"/></cfdi:Complemento></cfdi:Comprobante>',
    );
  return utf8(xml);
}

/** Per 'YYYY-MM': what the month shows (absent = 0.00). */
export type Books = Record<string, { spending?: string; income?: string }>;

/** The exact sum of decimal strings, with two decimals ('-12.50'). */
export const sum = (values: string[]) => {
  const cents = values.reduce((s, v) => s + BigInt(Math.round(Number(v) * 100)), 0n);
  const abs = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${cents < 0n ? '-' : ''}${abs.slice(0, -2)}.${abs.slice(-2)}`;
};
