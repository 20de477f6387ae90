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

/** A solved login challenge: the token the server issued and a nonce found for it (see `LoginChallenge`). */
export const LoginChallengeSolution = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 512 }),
    nonce: Type.String({ minLength: 1, maxLength: 32, pattern: '^[0-9]+$' }),
  },
  { additionalProperties: false },
);
export type LoginChallengeSolution = Static<typeof LoginChallengeSolution>;

export const LoginBody = Type.Object(
  {
    username: Type.String({ maxLength: Limits.username.max }),
    password: Type.String({ maxLength: Limits.password.max }),
    /** Needed once the username has had many wrong passwords, unless `device_token` is the owner's. */
    challenge: Type.Optional(LoginChallengeSolution),
    /** The token this device got at its last sign-in to the account: the owner's device skips the challenge. */
    device_token: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const AuthSession = Type.Object({
  access_token: Type.String(),
  user: Me,
  /** Kept by the device after sign-out too: its next sign-in to this account skips the login challenge. */
  device_token: Type.Optional(Type.String()),
});
export type AuthSession = Static<typeof AuthSession>;

/**
 * A proof-of-work challenge (403 `login_challenge_required`): find a decimal `nonce` such that
 * SHA-256 of the UTF-8 text `${token}:${nonce}` starts with `difficulty` zero bits, then send the login
 * again with `challenge: { token, nonce }`. Each token works once, for this username, until `expires_at`.
 */
export const LoginChallenge = Type.Object({
  token: Type.String(),
  difficulty: Type.Integer({ minimum: 1, maximum: 32 }),
  expires_at: Type.String(),
});
export type LoginChallenge = Static<typeof LoginChallenge>;
/**
 * A 403 on login: a proof-of-work challenge to solve (`login_challenge_required`), or a refusal without one
 * (a suspended account, `account_suspended`).
 */
export const LoginChallengeBody = Type.Object({
  error: Type.String(),
  code: Type.String(),
  fields: Type.Optional(Type.Record(Type.String(), Type.String())),
  challenge: Type.Optional(LoginChallenge),
});
export type LoginChallengeBody = Static<typeof LoginChallengeBody>;

export const MeResponse = Type.Object({ user: Me });
export type MeResponse = Static<typeof MeResponse>;
