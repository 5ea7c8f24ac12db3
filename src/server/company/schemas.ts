// Request bodies of the company endpoints (valibot, Spanish messages). Missing fields become '' / null so
// the spec's own messages (domain/company.ts, in its order) are the ones the caller sees.
import * as v from 'valibot';
import { REFUND_ACCOUNT_TYPES } from '../../domain/company';
import { ClientFields, UbicationData } from '../../domain/client-schemas';
import { MSG } from '../../domain/messages';
import { PASSWORD_MAX } from '../../domain/password';
import { idOrNone, optionalId, text } from '../http/form-fields';

const accountType = v.pipe(
  optionalId(MSG.collaboratorAccountTypeRequired),
  v.check((n) => n === null || REFUND_ACCOUNT_TYPES.some((t) => t.id === n), MSG.collaboratorAccountTypeRequired),
);

export const CollaboratorFields = v.object(
  {
    email: text(254, MSG.emailInvalid),
    first_name: text(255, MSG.collaboratorFirstNameRequired),
    last_name: text(255, MSG.collaboratorLastNameRequired),
    area_id: optionalId(MSG.collaboratorAreaRequired),
    corporate_card: text(40, MSG.corporateCardDigits),
    account_type_for_refunds_id: accountType,
    account_for_refunds: text(40, MSG.refundAccountRequired),
    authorizer_id: optionalId(MSG.collaboratorAuthorizerInvalid),
  },
  MSG.collaboratorEmailRequired,
);

export const NewCollaboratorBody = v.object({
  invitation: CollaboratorFields,
  /** The company's text for the invitation e-mail. */
  email_text: text(2_000, MSG.missingInfo),
  /** How the e-mail names the company (default: its name on the tax account). */
  company_name: text(255, MSG.missingInfo),
});

const editText = (max: number, msg: string) => v.optional(v.pipe(v.string(msg), v.maxLength(max, msg)));
/** Missing: leave as is; '' / null: clear. */
const editId = (msg: string) => v.optional(idOrNone(msg));

export const EditCollaboratorBody = v.object({
  invitation: v.optional(
    v.object({
      first_name: editText(255, MSG.collaboratorFirstNameRequired),
      last_name: editText(255, MSG.collaboratorLastNameRequired),
      area_id: editId(MSG.collaboratorAreaRequired),
      corporate_card: editText(40, MSG.corporateCardDigits),
      account_type_for_refunds_id: v.optional(
        v.pipe(
          editId(MSG.collaboratorAccountTypeRequired),
          v.check((n) => n == null || REFUND_ACCOUNT_TYPES.some((t) => t.id === n), MSG.collaboratorAccountTypeRequired),
        ),
      ),
      account_for_refunds: editText(40, MSG.refundAccountRequired),
      authorizer_id: editId(MSG.collaboratorAuthorizerInvalid),
    }),
    {},
  ),
  /** Ours: true sends a new join link to someone still 'invitado' (the old one stops working). */
  resend: v.optional(v.boolean()),
  email_text: text(2_000, MSG.missingInfo),
  company_name: text(255, MSG.missingInfo),
});

export const AreaBody = v.object({ area: text(120, MSG.missingInfo) });

export const AcceptInvitationBody = v.object({
  rfc: v.pipe(v.string(MSG.joinRfcRequired), v.minLength(1, MSG.joinRfcRequired), v.maxLength(13, MSG.rfcInvalid)),
});

export const SignUpInvitationBody = v.object({
  user: v.object(
    {
      username: v.string(MSG.accountEmpty),
      password: v.pipe(v.string(MSG.accountEmpty), v.maxLength(PASSWORD_MAX, MSG.passwordLong)),
    },
    MSG.accountEmpty,
  ),
  client: ClientFields,
  ubication_data: UbicationData,
}, MSG.accountEmpty);
