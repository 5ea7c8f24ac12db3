// Bodies and queries of the company expense view (spec §7 'Company tickets', 'Company
// stats', 'Mark as paid / rejected'). Ids are UUIDs; a rejection needs a reason (≤ REJECTION_REASON_MAX).
import * as v from 'valibot';
import { REJECTION_REASON_MAX } from '../../domain/company';
import { REVIEW_MAX_TICKETS } from '../../domain/company-view';
import { FIRST_YEAR } from '../../domain/dates';
import { MSG } from '../../domain/messages';

const int = (min: number, max: number) =>
  v.pipe(v.string(MSG.badJson), v.regex(/^\d{1,10}$/, MSG.badJson), v.transform(Number), v.integer(MSG.badJson), v.minValue(min, MSG.badJson), v.maxValue(max, MSG.badJson));

export const CompanyViewQuery = v.object({
  usuario: v.object({ rfc_owner: v.pipe(v.string(MSG.rfcInvalid), v.minLength(1, MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)) }, MSG.rfcInvalid),
  date: v.object({ year: int(FIRST_YEAR, 9999), month: int(1, 12) }, MSG.badJson),
  action: v.optional(v.string()),
  /** The ticket list is paged (newest first): page 1.., per_page 1..LIST_MAX_PER_PAGE (default LIST_PER_PAGE). */
  page: v.optional(int(1, 1_000_000)),
  per_page: v.optional(int(1, 1000)),
});

export const LIST_PER_PAGE = 50;
export const LIST_MAX_PER_PAGE = 1000;

const TicketIds = v.pipe(
  v.array(v.pipe(v.string(MSG.ticketNotFound), v.uuid(MSG.ticketNotFound)), MSG.badJson),
  v.minLength(1, MSG.badJson),
  v.maxLength(REVIEW_MAX_TICKETS, MSG.badJson),
);

/** The company is named by its diverza_client_id (ours, optional: else the tickets' company is used). */
const CompanyRef = v.optional(v.pipe(v.number(MSG.badJson), v.integer(MSG.badJson)));

export const MarkAsPaidBody = v.object({ tickets: TicketIds, client_id: CompanyRef });

export const MarkAsRejectedBody = v.object({
  tickets: TicketIds,
  client_id: CompanyRef,
  reason: v.pipe(v.optional(v.string(MSG.rejectionReasonRequired), ''), v.trim(), v.minLength(1, MSG.rejectionReasonRequired), v.maxLength(REJECTION_REASON_MAX, MSG.rejectionReasonTooLong)),
});
