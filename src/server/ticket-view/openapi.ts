// The OpenAPI entries of src/server/ticket-view's routes (collected by openapi/document.ts).
import type { Endpoint } from '../openapi/document';

export const TICKET_VIEW_ENDPOINTS: Endpoint[] = [];
