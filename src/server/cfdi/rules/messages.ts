// The Spanish explanation shown to a user for each finding: SAT's own message from the matrix
// (what a PAC answers), reworded here where SAT's text is unclear on its own.
import { MATRIX_MESSAGES } from './catalogs';

const CLEARER: ReadonlyMap<string, string> = new Map(Object.entries({
  CFDI40101: 'El campo Fecha no cumple con el patrón requerido (AAAA-MM-DDThh:mm:ss).',
  CFDI40102: 'El sello del CFDI no corresponde a su contenido y a su certificado: el archivo fue alterado o no es auténtico.',
  CFDI40106: 'El certificado del CFDI no es un certificado válido o no corresponde a su NoCertificado.',
  CFDI40108: 'El SubTotal del comprobante no es la suma (redondeada) de los importes de los conceptos.',
  CFDI40111: 'El Descuento del comprobante no es la suma (redondeada) de los descuentos de los conceptos, o hay descuento en un comprobante que no es de ingreso, egreso o nómina.',
  CFDI40119: 'El Total no es el SubTotal menos los descuentos, más los impuestos trasladados, menos los retenidos.',
  CFDI40120: 'El Total rebasa el límite del SAT para este tipo de comprobante y no trae clave de Confirmación del PAC.',
  CFDI40126: 'El lugar de expedición (LugarExpedicion) no es un código postal de México.',
  CFDI40127: 'El CFDI trae una clave de Confirmación sin necesitarla: su Total está dentro del límite del SAT.',
  CFDI40130: 'Una factura de ingreso a PUBLICO EN GENERAL (XAXX010101000) debe llevar la Información Global (periodicidad, meses y año).',
  CFDI40136: 'El año de la Información Global debe ser el del comprobante o uno de los cinco anteriores.',
  CFDI40141: 'El régimen fiscal del emisor (RegimenFiscal) no corresponde a su tipo de persona (RFC de 12 caracteres: persona moral; de 13: persona física).',
  CFDI40149: 'Con un RFC genérico (XAXX010101000 o XEXX010101000), el domicilio fiscal del receptor (DomicilioFiscalReceptor) debe ser el código postal del lugar de expedición.',
  CFDI40153: 'Un receptor extranjero con número de registro tributario (NumRegIdTrib) o con complemento de comercio exterior debe indicar su país de residencia fiscal.',
  CFDI40155: 'Con complemento de comercio exterior, el receptor extranjero (XEXX010101000) debe indicar su número de registro tributario (NumRegIdTrib).',
  CFDI40156: 'El número de registro tributario del receptor (NumRegIdTrib) no tiene el formato de su país de residencia (Estados Unidos y Canadá: 9 dígitos).',
  CFDI40157: 'El régimen fiscal del receptor (RegimenFiscalReceptor) no está en el catálogo del SAT.',
  CFDI40158: 'El régimen fiscal del receptor (RegimenFiscalReceptor) no corresponde a su tipo de persona (RFC de 12 caracteres: persona moral; de 13: persona física).',
  CFDI40159: 'Con un RFC genérico (XAXX010101000 o XEXX010101000), el régimen fiscal del receptor (RegimenFiscalReceptor) debe ser 616 (Sin obligaciones fiscales).',
  CFDI40161: 'El Uso del CFDI (UsoCFDI) no corresponde al régimen fiscal ni al tipo de persona del receptor según el catálogo del SAT (con un RFC genérico solo cabe S01).',
  CFDI40162: 'La clave de producto o servicio (ClaveProdServ) de un concepto no es una clave del catálogo del SAT.',
  CFDI40166: 'El valor unitario de un concepto debe ser mayor que cero en un comprobante de ingreso, egreso o nómina.',
  CFDI40167: 'El importe de un concepto no es su cantidad por su valor unitario (fuera de los límites de redondeo del SAT).',
  CFDI40168: 'El descuento de un concepto tiene más decimales que su importe.',
  CFDI40180: 'El importe de un impuesto trasladado de un concepto no es su base por su tasa o cuota (fuera de los límites de redondeo del SAT).',
  CFDI40186: 'El importe de un impuesto retenido de un concepto no es su base por su tasa o cuota (fuera de los límites de redondeo del SAT).',
  CFDI40211: 'El importe de una retención del comprobante no es la suma (redondeada) de las retenciones de ese impuesto en los conceptos.',
  CFDI40213: 'Si todos los conceptos están exentos, cada traslado del comprobante lleva solo Base, Impuesto y TipoFactor.',
  CFDI40214: 'La Base de un traslado del comprobante tiene más decimales de los que admite la moneda.',
  CFDI40215: 'La Base de un traslado del comprobante no es la suma (redondeada) de las bases de los conceptos con el mismo impuesto, tipo factor y tasa.',
  CFDI40221: 'El importe de un traslado del comprobante no es la suma (redondeada) de los traslados de los conceptos con el mismo impuesto, tipo factor y tasa.',
}));

export function explain(code: string): string {
  return CLEARER.get(code) ?? MATRIX_MESSAGES.get(code) ?? 'Error no clasificado.';
}
