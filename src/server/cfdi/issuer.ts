// A merchant as a CFDI 4.0 Emisor: what the merchants area reads from its catalogue and invoicing builds the
// CFDI with (one shape for both, here in the CFDI's shared home).
export interface MerchantIssuer {
  id: number;
  shortName: string;
  /** As shown on pickers and forms. */
  name: string;
  logo: string;
  rfc: string;
  /** CFDI 4.0 Emisor Nombre (without the capital regime suffix). */
  legalName: string;
  taxRegime: string;
  /** Its main postal code (LugarExpedicion when a ticket names none). */
  postalCode: string;
}
