import { type Static, Type } from 'typebox';

export const ComponentStatus = Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]);

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Object({ status: ComponentStatus, engine: Type.String() }),
  media_server: Type.Object({ status: ComponentStatus, url: Type.Union([Type.String(), Type.Null()]) }),
  realtime: Type.Object({ adapter: Type.String() }),
  version: Type.String(),
  uptime_s: Type.Number(),
});
export type HealthResponse = Static<typeof HealthResponse>;
