import { type TSchema, Type } from 'typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const IsoDateTime = Type.String({ format: 'date-time' });
