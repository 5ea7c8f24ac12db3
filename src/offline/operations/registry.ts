// Every outbox operation kind and the module that defines it: adding a kind means adding its module
// here (and its name to OpKind in domain/outbox-ops.ts); the engine and the outbox view need no edit.
import type { OpKind } from '../../domain/outbox-ops';
import { filesUpload } from './files-upload';
import type { Operation } from './operation';
import { ticketCreate } from './ticket-create';
import { ticketDelete } from './ticket-delete';
import { ticketImage } from './ticket-image';
import { ticketUpdate } from './ticket-update';

const OPERATIONS: Record<OpKind, Operation> = {
  'ticket.create': ticketCreate,
  'ticket.update': ticketUpdate,
  'ticket.attach_image': ticketImage,
  'ticket.delete': ticketDelete,
  'files.upload': filesUpload,
};

export function operationOf(kind: OpKind): Operation {
  return OPERATIONS[kind];
}
