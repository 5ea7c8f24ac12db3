// Request bodies for tax accounts: new client and edit client (spec §3 New client payload, §7).
import * as v from 'valibot';
import { MSG } from './messages';
import { NAME_MAX, TEXT_MAX } from './registration';

const optText = (max: number) =>
  v.optional(v.pipe(v.nullable(v.string(MSG.missingInfo)), v.transform((s) => s ?? ''), v.maxLength(max, MSG.missingInfo)), '');

export const ClientFields = v.object(
  {
    rfc: v.pipe(v.string(MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)),
    name: optText(NAME_MAX),
    first_name: optText(NAME_MAX),
    last_name: optText(NAME_MAX),
    /** Régimen fiscal (ours, CFDI 4.0). */
    regimen_fiscal: optText(3),
  },
  MSG.missingInfo,
);

export const UbicationData = v.optional(
  v.object({
    street: optText(TEXT_MAX),
    external_number: optText(TEXT_MAX),
    internal_number: optText(TEXT_MAX),
    neighborhood: optText(TEXT_MAX),
    city: optText(TEXT_MAX),
    state: optText(TEXT_MAX),
    country: optText(3),
    zip_code: optText(5),
    num_reg_id_trib: optText(40),
    residencia_fiscal: optText(3),
  }),
  {},
);

export const NewClientBody = v.object({
  client: ClientFields,
  ubication_data: UbicationData,
});
export type NewClientBody = v.InferOutput<typeof NewClientBody>;

export const EditClientBody = v.object({
  client: v.object(
    {
      diverza_client_id: v.pipe(v.union([v.number(), v.string()], MSG.notFound), v.transform(Number), v.integer(MSG.notFound)),
      rfc: v.pipe(v.string(MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)),
      name: optText(NAME_MAX),
      first_name: optText(NAME_MAX),
      last_name: optText(NAME_MAX),
      /** Absent = unchanged (ours, CFDI 4.0). */
      zip_code: v.optional(v.pipe(v.string(MSG.postalCodeInvalid), v.maxLength(5, MSG.postalCodeInvalid))),
      regimen_fiscal: v.optional(v.pipe(v.string(MSG.regimeInvalid), v.maxLength(3, MSG.regimeInvalid))),
    },
    MSG.missingInfo,
  ),
});
export type EditClientBody = v.InferOutput<typeof EditClientBody>;
