// Every endpoint of the API for the OpenAPI document: the core ones here and each area's own list.
import type { Endpoint } from './openapi/document';
import { INVOICING_ENDPOINTS } from './invoicing/openapi';
import { MERCHANT_ENDPOINTS } from './merchants/openapi';
import { COMPANY_ENDPOINTS } from './company/openapi';
import { PER_DIEM_ENDPOINTS } from './per-diem/openapi';
import { OAUTH_ENDPOINTS } from './oauth/openapi';
import { SAT_SYNC_ENDPOINTS } from './sat-sync/openapi';
import { TICKET_VIEW_ENDPOINTS } from './ticket-view/openapi';

const CORE_ENDPOINTS: Endpoint[] = [
];

/** Every endpoint: the core ones above and each area's own list. */
export const ENDPOINTS: Endpoint[] = [...CORE_ENDPOINTS, ...MERCHANT_ENDPOINTS, ...INVOICING_ENDPOINTS, ...TICKET_VIEW_ENDPOINTS, ...SAT_SYNC_ENDPOINTS, ...OAUTH_ENDPOINTS, ...COMPANY_ENDPOINTS, ...PER_DIEM_ENDPOINTS];
