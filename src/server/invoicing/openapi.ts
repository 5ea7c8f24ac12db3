// The OpenAPI entries of src/server/invoicing's routes (collected by openapi/document.ts).
import type { Endpoint } from '../openapi/document';

export const INVOICING_ENDPOINTS: Endpoint[] = [];
