// Valibot descriptions of what the endpoints answer, used only to document them in OpenAPI.
import * as v from 'valibot';

const nullableString = v.nullable(v.string());
const nullableInt = v.nullable(v.pipe(v.number(), v.integer()));

export const Address = v.object({
  street: v.string(),
  external_number: v.string(),
  internal_number: v.string(),
  neighborhood: v.string(),
  city: v.string(),
  state: v.string(),
  country: v.pipe(v.string(), v.description('Clave c_Pais de 3 letras')),
  zip_code: v.string(),
});

export const PaymentHistoryItem = v.object({
  id: v.string(),
  plan_id: v.number(),
  timestamp: v.string(),
  amount: v.number(),
  successful: v.boolean(),
  card_brand: nullableString,
  card_last4: nullableString,
});

export const Account = v.object({
  diverza_client_id: v.pipe(v.number(), v.integer()),
  rfc: v.string(),
  name: nullableString,
  first_name: nullableString,
  last_name: nullableString,
  plan_id: v.pipe(v.number(), v.integer()),
  subscription_id: nullableInt,
  card_brand: nullableString,
  card_last4: nullableString,
  card_exp_month: nullableInt,
  card_exp_year: nullableInt,
  active_until: v.pipe(nullableString, v.description('ISO 8601')),
  payment_history: v.array(PaymentHistoryItem),
  ciec: v.boolean(),
  synchronized_at: v.pipe(nullableString, v.description('ISO 8601')),
  num_reg_id_trib: nullableString,
  residencia_fiscal: nullableString,
  address: v.array(Address),
  rfc_verified: v.pipe(v.boolean(), v.description('Si se comprobó que quien la tiene es titular del RFC (e.firma o conexión al SAT)')),
  rfc_verified_by: v.nullable(v.picklist(['efirma', 'sat'])),
});

export const Session = v.object({
  token: v.string(),
  user_id: v.number(),
  email: v.string(),
  username: v.string(),
});

/** Login's answer: the session plus the known-device token to send with the next sign-in as `device_token`. */
export const LoginSession = v.object({
  ...Session.entries,
  device_token: v.pipe(v.string(), v.description('Token de dispositivo conocido: envíalo como device_token al volver a iniciar sesión; los bloqueos por intentos fallidos de otros no lo afectan')),
});

export const NewUser = v.object({ user_id: v.number(), username: v.string(), email: v.string() });

export const Challenge = v.object({
  algorithm: v.literal('SHA-256'),
  challenge: v.string(),
  maxnumber: v.number(),
  salt: v.string(),
  signature: v.string(),
});

export const Message = v.object({ message: v.string() });
export const Ok = v.object({ ok: v.boolean() });
export const MetaTag = v.object({ id: v.number(), meta_tag: v.string() });
export const IncomeMetaTag = v.object({ id: v.number(), income_meta_tag: v.string() });
export const Plan = v.object({ id: v.number(), name: v.string(), summary: v.string(), price: v.number() });

export const Company = v.object({
  short_name: v.string(),
  diverza_client_id: v.pipe(v.number(), v.integer(), v.description('El id que se envía como company[id]; 1 = Registro manual')),
  name: v.string(),
  value: v.pipe(v.string(), v.description('Ruta del logo')),
});

/** Spec §3 Receipt: the CFDI behind a ticket. */
export const Receipt = v.object({
  receipt_id: v.pipe(v.string(), v.description('UUID del comprobante en Cuentas Claras (para /receipt_pdf y /receipt_xml)')),
  rfc_issuer: v.string(),
  name_issuer: v.string(),
  rfc_receiver: v.string(),
  name_receiver: v.pipe(v.string(), v.description('Nombre del receptor tal como viene en el CFDI (a quién se facturó un ingreso)')),
  emission_date: v.pipe(v.string(), v.description('Fecha del CFDI tal como viene en el XML (hora de la Ciudad de México)')),
  uuid: v.pipe(v.string(), v.description('Folio fiscal (UUID del TimbreFiscalDigital)')),
  imp_tras: v.pipe(v.string(), v.description('Impuestos trasladados, 2 decimales')),
  imp_ret: v.pipe(v.string(), v.description('Impuestos retenidos, 2 decimales')),
  metodo_pago: v.string(),
  numctapago: v.string(),
  sat_status: v.pipe(v.nullable(v.string()), v.description('Estado del CFDI en el SAT: Vigente, Cancelado o No encontrado; null si aún no se consulta')),
});

export const Ticket = v.object({
  ticket_id: v.pipe(v.string(), v.description('UUID (UUIDv7 si lo creó el cliente)')),
  ticket_type_id: v.pipe(v.number(), v.description('2 gasto; 3 y 4 ingreso')),
  ticket_status_name: v.string(),
  received_at: v.pipe(v.string(), v.description('ISO 8601 con el desfase de la Ciudad de México')),
  company_short_name: v.string(),
  ticket_number: v.string(),
  amount: v.pipe(v.string(), v.description('MXN, 2 decimales')),
  tags: v.array(v.object({ tag_id: v.number(), tag_name: v.string() })),
  income_meta_tag_id: nullableInt,
  note: v.string(),
  include_ticket_image: v.boolean(),
  ticket_image_text: v.string(),
  user_area: v.string(),
  username: v.string(),
  receipt: v.nullable(Receipt),
  rfc: v.string(),
  currency: v.string(),
  original_amount: v.pipe(nullableString, v.description('Monto en la moneda original (si no es MXN)')),
});

export const TicketList = v.object({ tickets: v.array(Ticket) });
export const TicketCreated = v.object({ ticket: v.object({ ticket_id: v.string() }) });
export const ShareSent = v.object({ sent: v.literal(true) });
export const Deleted = v.object({ deleted: v.pipe(v.number(), v.integer()) });
/** POST /api/v3/users/{id}/files: each file as received or refused at once. */
export const UploadedFiles = v.object({
  files: v.array(
    v.object({
      id: v.pipe(v.string(), v.description('upload id (UUIDv7): su estado llega por /files/statuses')),
      name: v.string(),
      status: v.pipe(v.picklist(['recibido', 'rechazado']), v.description('rechazado: demasiado grande o tipo no soportado')),
      reason: v.optional(v.string()),
    }),
  ),
});
export const ExchangeRate = v.object({
  base: v.string(),
  date: v.pipe(v.string(), v.description('Fecha de publicación usada (aaaa-mm-dd): la última dentro de 7 días')),
  rate: v.pipe(v.number(), v.description('MXN por 1 unidad de base')),
  source: v.picklist(['banxico', 'manual']),
});

const MonthSum = v.object({
  month: v.pipe(v.string(), v.description('aaaa-mm (calendario de la Ciudad de México)')),
  sum: v.pipe(v.string(), v.description('MXN, 2 decimales; "0.00" si el mes no tiene movimientos')),
});
export const Stats = v.object({
  stats: v.pipe(
    v.object({
      spending: v.pipe(v.array(MonthSum), v.description('Gastos (tipo 2): siempre los 12 meses del año, de enero a diciembre')),
      income: v.pipe(v.array(MonthSum), v.description('Ingresos (tipos 3 y 4): siempre los 12 meses del año, de enero a diciembre')),
    }),
    v.description('Con action=stats: totales mensuales del año date[year] (date[month] no cambia el resultado)'),
  ),
});

const Group = v.object({ label: v.string(), value: v.pipe(v.number(), v.description('MXN, redondeado a 2 decimales')) });
const Breakdown = v.object({
  venues: v.pipe(v.array(Group), v.description('Gasto por establecimiento (el emisor del CFDI, si no el nombre de la empresa; sin las capturas manuales, que no nombran un lugar), de mayor a menor, todos los grupos')),
  categories: v.pipe(v.array(Group), v.description('Gasto por categoría ("Sin Categoría" si no tiene), de mayor a menor, todos los grupos')),
});
export const SpendingAnalytics = v.object({
  current: Breakdown,
  past: v.pipe(Breakdown, v.description('El periodo anterior: el mes anterior (enero → diciembre del año previo) o el año anterior')),
});
