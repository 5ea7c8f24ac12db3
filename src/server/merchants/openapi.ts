// The OpenAPI entries of src/server/merchants's routes (collected by openapi/document.ts).
import type { Endpoint } from '../openapi/document';

export const MERCHANT_ENDPOINTS: Endpoint[] = [];
