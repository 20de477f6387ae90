import { type Static, Type } from 'typebox';

/** Every 4xx/5xx answer (codes and texts in error-codes.ts). */
export const ErrorBody = Type.Object({
  error: Type.String({ description: 'Russian text a user can read' }),
  code: Type.String({ description: 'machine code, see ErrorCode' }),
  /** Per-field messages for forms (field name → Russian text). */
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
});
export type ErrorBody = Static<typeof ErrorBody>;
