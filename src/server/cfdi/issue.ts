// One call for "give me a real, sealed and sandbox-stamped CFDI 4.0": build → seal → stamp. The
// demo data uses it to make invoices between the demo's test RFCs at start-up, e.g.
//   issueSandboxCfdi({ fecha, formaPago: '04', metodoPago: 'PUE', tipoDeComprobante: 'I',
//     lugarExpedicion: '42501',
//     emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
//     receptor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', domicilioFiscalReceptor: '…',
//       regimenFiscalReceptor: '612', usoCfdi: 'G03' },
//     conceptos: [{ claveProdServ: '01010101', cantidad: 1, claveUnidad: 'ACT', descripcion: 'Venta',
//       valorUnitario: '100.00', objetoImp: '02', traslados: [IVA_16] }] }, openTestCsd('EKU9003173C9'))
import type { CfdiInput } from './build';
import type { PacPort } from './pac';
import { SandboxPac } from './sandbox-pac';
import { sealCfdi, type Csd } from './seal';

export interface IssuedCfdi {
  /** The stamped XML. */
  xml: string;
  uuid: string;
  fechaTimbrado: string;
  /** The comprobante's cadena original and Sello (the timbre does not change them). */
  cadena: string;
  sello: string;
}

let sandbox: SandboxPac | undefined;

/** The process's sandbox PAC, created on first use. */
export function defaultSandboxPac(): SandboxPac {
  sandbox ??= new SandboxPac();
  return sandbox;
}

export interface IssueOptions {
  /** Another PAC port (default: the process's sandbox PAC). */
  pac?: PacPort;
  /** Stamping time, FechaTimbrado (sandbox only; default: now). The demo stamps each invoice at its Fecha. */
  at?: Date;
}

/**
 * Builds `input` as CFDI 4.0, seals it with `csd` (whose RFC must be the Emisor's) and stamps it
 * with the sandbox PAC (or `options.pac`).
 */
export async function issueSandboxCfdi(input: CfdiInput, csd: Csd, options: IssueOptions = {}): Promise<IssuedCfdi> {
  const pac = options.pac ?? defaultSandboxPac();
  if (options.at && !(pac instanceof SandboxPac)) throw new Error('issueSandboxCfdi: "at" only applies to the sandbox PAC');
  const sealed = sealCfdi(input, csd);
  const stamped = options.at && pac instanceof SandboxPac ? await pac.stampAt(sealed.xml, options.at) : await pac.stamp(sealed.xml);
  return { ...stamped, cadena: sealed.cadena, sello: sealed.sello };
}
