import { type Static, Type } from 'typebox';
import { Limits } from '../limits.ts';
import { Me } from '../users.ts';

export const RegisterBody = Type.Object(
  {
    username: Type.String({ maxLength: Limits.username.max }),
    name: Type.String({ maxLength: Limits.displayName.max }),
    password: Type.String({ maxLength: Limits.password.max }),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object(
  {
    username: Type.String({ maxLength: Limits.username.max }),
    password: Type.String({ maxLength: Limits.password.max }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const AuthSession = Type.Object({ access_token: Type.String(), user: Me });
export type AuthSession = Static<typeof AuthSession>;

export const MeResponse = Type.Object({ user: Me });
export type MeResponse = Static<typeof MeResponse>;
