/**
 * What the browser may import at run time from the contract: constants and the route helpers, never
 * a schema (TypeBox stays on the server; a test on the built bundle checks it). Types come from
 * `import type { … } from '@kadr/contract'`, endpoints from `@kadr/contract/<capability>/endpoints`.
 */

export * from './calls/format.ts';
export * from './error-codes.ts';
export * from './error-texts.ts';
export * from './groups/service-lines.ts';
export * from './limits.ts';
export * from './livekit/rooms.ts';
export * from './media/picture-sizes.ts';
export * from './media/tags.ts';
export * from './messenger/chat-target.ts';
export * from './messenger/reaction-kinds.ts';
export * from './moderation/constants.ts';
export * from './passwords.ts';
export { API_PREFIX } from './paths.ts';
export { PAGE_HEADER, rooms, SOCKET_PATH } from './realtime.ts';
export { apiUrl, type Endpoint, type EndpointRoute, fillPath, type UrlQuery } from './route.ts';
export * from './stories/constants.ts';
export * from './text.ts';
export * from './voice/order.ts';
