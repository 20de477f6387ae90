import type { AcceptCallBody, StartCallBody } from '@kadr/contract';
import { callsEndpoints } from '@kadr/contract/calls/endpoints';
import { api } from '../../../shared/api/client.ts';

/** The call routes as functions (contract endpoints; no path written here). */
export const callsApi = {
  start: (body: StartCallBody) => api.call(callsEndpoints.start, { body }),
  current: () => api.call(callsEndpoints.current),
  accept: (id: number, body: AcceptCallBody) => api.call(callsEndpoints.accept, { params: { id }, body }),
  reject: (id: number) => api.call(callsEndpoints.reject, { params: { id } }),
  end: (id: number) => api.call(callsEndpoints.end, { params: { id } }),
  connected: (id: number) => api.call(callsEndpoints.connected, { params: { id } }),
  resume: (id: number, socketId: string) =>
    api.call(callsEndpoints.resume, { params: { id }, body: { socket_id: socketId } }),
  token: (id: number) => api.call(callsEndpoints.token, { params: { id } }),
};
