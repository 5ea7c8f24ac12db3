// The demo's accounts the seed creates, named here so the demo data, the simulated SAT portal and the
// tests find them without reaching into the seed (which sits above every feature).
export const DEMO_USER = { username: 'demo', password: 'cuentasclaras', email: 'demo@cuentasclaras.mx' };
export const SUPPORT_USER = { username: 'soporte', email: 'soporte@cuentasclaras.mx' };
export const DEMO_RFCS = {
  // Postal codes and regimes as SAT's test data has them (CFDI 4.0 receivers need both).
  persona: { rfc: 'XIQB891116QE4', firstName: 'BERENICE', lastName: 'XIMO QUEZADA', zipCode: '88965', taxRegime: '612' },
  empresa: { rfc: 'EKU9003173C9', name: 'ESCUELA KEMPER URGATE', zipCode: '42501', taxRegime: '601' },
};
