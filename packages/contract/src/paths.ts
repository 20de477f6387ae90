/** Where the HTTP API lives; every route object's path is under it. Schema-free (the browser imports it). */
export const API_PREFIX = '/api/v1';
