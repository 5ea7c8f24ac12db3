// The words on a rendered CFDI PDF: SAT's names for the codes a CFDI carries (generated from
// tests/fixtures/catalogs into rules/catalogs.ts by tests/tools/make-sat-catalogs.ts) and the PDF's own labels.
import { SAT_NAMES } from './rules/catalogs';

export const FORMA_PAGO = SAT_NAMES.formaPago;
export const METODO_PAGO = SAT_NAMES.metodoPago;
export const REGIMEN_FISCAL = SAT_NAMES.regimenFiscal;
/** P01 'Por definir' is CFDI 3.3's, gone from the 4.0 catalogue the fixtures hold; 3.3 invoices still carry it. */
export const USO_CFDI: Readonly<Record<string, string>> = { ...SAT_NAMES.usoCfdi, P01: 'Por definir' };
export const IMPUESTO = SAT_NAMES.impuesto;

/** The document's title by TipoDeComprobante. */
export const TITLE: Record<string, string> = {
  I: 'Factura',
  E: 'Nota de crédito',
  T: 'Comprobante de traslado',
  N: 'Recibo de nómina',
  P: 'Recibo de pago',
};

export const TIPO_COMPROBANTE = SAT_NAMES.tipoComprobante;

export const PDF_TXT = {
  legend: 'Este documento es una representación impresa de un CFDI',
  page: (n: number, of: number) => `Página ${n} de ${of}`,
  moreRows: (n: number) => `Y ${n} renglones más: el XML adjunto a este PDF los incluye todos.`,
  cfdiVersion: (v: string, tipo: string) => `CFDI ${v} · ${tipo}`,
  serieFolio: 'Serie y folio',
  fecha: 'Fecha de emisión',
  lugar: 'Lugar de expedición',
  uuid: 'Folio fiscal (UUID)',
  fechaTimbrado: 'Fecha de certificación',
  issuer: 'Emisor',
  receiver: 'Receptor',
  rfc: 'RFC',
  regimen: 'Régimen fiscal',
  usoCfdi: 'Uso CFDI',
  domicilio: 'Domicilio fiscal',
  residencia: 'Residencia fiscal',
  numRegIdTrib: 'Registro tributario',
  conceptos: 'Conceptos',
  colClave: 'Clave',
  colCantidad: 'Cant.',
  colUnidad: 'Unidad',
  colDescripcion: 'Descripción',
  colValorUnitario: 'Valor unitario',
  colDescuento: 'Descuento',
  colImporte: 'Importe',
  metodoPago: 'Método de pago',
  formaPago: 'Forma de pago',
  condiciones: 'Condiciones de pago',
  numCta: 'Cuenta de pago',
  moneda: 'Moneda',
  tipoCambio: 'Tipo de cambio',
  subTotal: 'Subtotal',
  descuento: 'Descuento',
  trasladado: 'trasladado',
  retenido: 'retenido',
  exento: 'exento',
  total: 'Total',
  totalMxn: 'Total en pesos (MXN)',
  impuestosTrasladados: 'Impuestos trasladados',
  impuestosRetenidos: 'Impuestos retenidos',
  pagos: 'Pagos recibidos',
  colFechaPago: 'Fecha de pago',
  colFormaPago: 'Forma de pago',
  colMonedaP: 'Moneda',
  colTipoCambioP: 'Tipo de cambio',
  colMonto: 'Monto',
  colDocumentos: 'Documentos pagados',
  parcialidad: 'parcialidad',
  pagado: 'pagado',
  totalPagos: 'Total de pagos (MXN)',
  nomina: 'Nómina',
  periodo: 'Periodo',
  fechaPagoNomina: 'Fecha de pago',
  diasPagados: 'Días pagados',
  percepciones: 'Percepciones',
  deducciones: 'Deducciones',
  otrosPagos: 'Otros pagos',
  isrRetenido: 'Impuestos retenidos',
  noCertificado: 'No. de certificado del emisor',
  noCertificadoSat: 'No. de certificado del SAT',
  rfcProvCertif: 'RFC del proveedor de certificación',
  sello: 'Sello digital del CFDI',
  selloSat: 'Sello digital del SAT',
  cadenaTfd: 'Cadena original del complemento de certificación digital del SAT',
  none: '—',
} as const;
