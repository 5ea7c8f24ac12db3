// Request bodies of the ticket endpoints (spec §7 create ticket, update ticket, remove tickets),
// checked by the server with the same rules the panel uses.
import * as v from 'valibot';
import { MSG } from './messages';
import { NOTE_MAX } from './spending-form';
import { numberOrNone, optionalNumber } from './validation';

const id = v.pipe(v.string(MSG.ticketNotFound), v.uuid(MSG.ticketNotFound));
/** A category id or none ('' from legacy clients = none). */
const categoryOrNone = optionalNumber(MSG.categoryUnknown, { integer: true });
/** A code with a default when absent or ''. */
const codeOr = (fallback: number) => v.pipe(v.optional(numberOrNone(undefined, { integer: true }), fallback), v.transform((n) => n ?? fallback));

export const CreateTicketBody = v.object({
  usuario: v.object({ rfc: v.pipe(v.string(MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)) }, MSG.rfcInvalid),
  company: v.object({ id: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.integer(MSG.notFound)) }, MSG.notFound),
  ticket: v.pipe(
    v.array(v.object({ form_configuration_id: v.pipe(v.union([v.number(), v.string()]), v.transform(Number)), value: v.pipe(v.string(), v.maxLength(255)) })),
    v.maxLength(40),
  ),
  additional_info: v.optional(
    v.object({
      ticket_id: v.optional(id),
      note: v.optional(v.pipe(v.string(), v.maxLength(NOTE_MAX, MSG.noteTooLong)), ''),
      latitude: optionalNumber(),
      longitude: optionalNumber(),
      meta_tag: categoryOrNone,
      income_meta_tag: categoryOrNone,
      ticket_type: codeOr(2),
      ticket_status: codeOr(3),
      currency: v.optional(v.string(), 'MXN'),
      original_amount: v.optional(v.nullable(v.string()), null),
    }),
    {},
  ),
});
export type CreateTicketBody = v.InferOutput<typeof CreateTicketBody>;

/** One change per call, as the spec's screens send it: a category, an income category or a note. */
export const UpdateTicketBody = v.object({
  ticket: v.object(
    {
      ticket_id: id,
      meta_tag_id: categoryOrNone,
      income_meta_tag_id: categoryOrNone,
      notes: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NOTE_MAX, MSG.noteTooLong))), null),
    },
    MSG.ticketNotFound,
  ),
});
export type UpdateTicketBody = v.InferOutput<typeof UpdateTicketBody>;

export const RemoveTicketsBody = v.object({
  tickets: v.pipe(v.array(id, MSG.ticketNotFound), v.minLength(1, MSG.ticketNotFound), v.maxLength(1000)),
});
