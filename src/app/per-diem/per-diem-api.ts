// The per-diem calls (server src/server/per-diem/routes.ts), typed by domain/company.ts.
import type { PerDiemEventDetail, PerDiemOptions } from '../../domain/company';
import { api } from '../api/client';
import type { PerDiemBody } from './per-diem-form';

const base = (clientId: number) => `/api/v3/clients/${clientId}/per_diem_events`;

/** The query keys of a company's per-diem reads. */
export const perDiemKeys = {
  events: (clientId: number) => ['per-diem', clientId, 'events'] as const,
  options: (clientId: number) => ['per-diem', clientId, 'options'] as const,
};

export const getPerDiemEvents = (clientId: number, signal?: AbortSignal) => api.get<PerDiemEventDetail[]>(`${base(clientId)}.json`, undefined, signal);
export const getPerDiemOptions = (clientId: number, signal?: AbortSignal) => api.get<PerDiemOptions>(`${base(clientId)}/options.json`, undefined, signal);
export const createPerDiemEvent = (clientId: number, body: PerDiemBody) => api.post<PerDiemEventDetail>(`${base(clientId)}.json`, { per_diem_event: body });
export const approvePerDiemEvent = (clientId: number, id: number) => api.post<PerDiemEventDetail>(`${base(clientId)}/${id}/approve.json`);
export const closePerDiemEvent = (clientId: number, id: number) => api.post<PerDiemEventDetail>(`${base(clientId)}/${id}/close.json`);
