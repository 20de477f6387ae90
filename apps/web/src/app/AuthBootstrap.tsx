import { useAuthBootstrap } from '../features/auth/api/auth-queries.ts';

export function AuthBootstrap() {
  useAuthBootstrap();
  return null;
}
