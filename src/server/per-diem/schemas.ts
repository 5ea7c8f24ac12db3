// The 'Nuevo evento' request body (valibot). Every field is taken loosely (a number or a string, missing
// → '' / null) so that checkPerDiem (domain/company.ts) gives the caller the spec's own messages in order.
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { optionalId, text } from '../http/form-fields';

/** The deposit as typed: a JSON number becomes its decimal text, so '12abc' and 12.5 meet the same check. */
const deposit = v.optional(
  v.pipe(
    v.nullable(v.union([v.number(MSG.perDiemDepositNumeric), v.string(MSG.perDiemDepositNumeric)], MSG.perDiemDepositNumeric)),
    v.transform((x) => (x === null ? '' : typeof x === 'number' ? (Number.isFinite(x) ? String(x) : 'x') : x)),
    v.maxLength(20, MSG.perDiemDepositNumeric),
  ),
  '',
);

export const PerDiemBody = v.object({
  per_diem_event: v.object({
    event_name: text(255, MSG.perDiemNameRequired),
    start_date: text(10, MSG.perDiemStartRequired),
    end_date: text(10, MSG.perDiemEndBeforeStart),
    area_id: optionalId(MSG.perDiemAreaInvalid),
    collaborator_id: optionalId(MSG.perDiemCollaboratorInvalid),
    deposit,
    notes: text(2000, MSG.generic),
  }, MSG.perDiemNameRequired),
}, MSG.perDiemNameRequired);
export type PerDiemBodyOut = v.InferOutput<typeof PerDiemBody>['per_diem_event'];
