import type { Generated } from 'kysely';

export interface AuthDevicesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the device token the device keeps. */
  token_hash: string;
  created_at: Generated<Date>;
}

export interface AuthKeysTable {
  id: number;
  secret: string;
}

// Migration 2051-auth-login-guard.
declare module '../../db/schema.ts' {
  interface Database {
    auth_devices: AuthDevicesTable;
    auth_keys: AuthKeysTable;
  }
}
