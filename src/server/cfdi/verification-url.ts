// SAT's verification expression for a CFDI: the QR's content on the printed invoice and what SAT's
// status service takes (cfdi-facts §1). The formatting rules — tt without insignificant zeros (3.3/4.0)
// or zero-padded 10.6 (3.2), RFCs XML-escaped, fe = the Sello's last 8 characters — are
// @nodecfdi/cfdi-expresiones' own: we hand its formatter the values readCfdi already found.
// Its DOM extractor is not used because it finds elements by prefix ('cfdi:Comprobante',
// 'tfd:TimbreFiscalDigital'), which valid CFDI with other prefixes would fail, and a second parse
// would buy nothing.
import { Comprobante32, Comprobante33, Comprobante40 } from '@nodecfdi/cfdi-expresiones';
import type { CfdiData } from './read';

const formatters = {
  '4.0': new Comprobante40(),
  '3.3': new Comprobante33(),
  '3.2': new Comprobante32(),
} as const;

/**
 * `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=…&re=…&rr=…&tt=…&fe=…` for 3.3 and
 * 4.0; for 3.2, SAT's older expression `?re=…&rr=…&tt=0000001234.567800&id=…` (it has no host).
 */
export function verificationUrl(cfdi: CfdiData): string {
  return formatters[cfdi.version].format({
    id: cfdi.uuidAsWritten,
    re: cfdi.issuer.rfc,
    rr: cfdi.receiver.rfc,
    tt: cfdi.total,
    fe: cfdi.sello,
  });
}
