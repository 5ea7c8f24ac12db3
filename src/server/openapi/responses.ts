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
});

export const Session = v.object({
  token: v.string(),
  user_id: v.number(),
  email: v.string(),
  username: v.string(),
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
