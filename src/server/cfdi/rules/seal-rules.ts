// CFDI40102 (Sello) and CFDI40106 (Certificado): the certificate in the CFDI must be a readable
// X.509 whose serial is the NoCertificado, and the Sello must be its SHA256withRSA signature of the
// cadena original (SAT's XSLT, see ../cadena.ts). Reuses the import's seal check in ../seal.ts.
import { checkCfdiSello } from '../seal';
import type { RuleContext, RuleModule } from './context';

function check(ctx: RuleContext): void {
  let result;
  try {
    result = checkCfdiSello(ctx.m.doc);
  } catch {
    // No cadena can be built (a construct SAT's stylesheet cannot render): the Sello cannot match.
    ctx.report('CFDI40102');
    return;
  }
  if (result.ok) return;
  if (result.problem === 'bad-certificate' || result.problem === 'wrong-no-certificado') ctx.report('CFDI40106');
  else ctx.report('CFDI40102');
}

export const sealRules: RuleModule = { codes: ['CFDI40102', 'CFDI40106'], check };
