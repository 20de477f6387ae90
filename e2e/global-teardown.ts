import { rmSync } from 'node:fs';

/** Removes the server's throwaway data directory created by playwright.config.ts. */
export default function globalTeardown(): void {
  const dataDir = process.env.KADR_E2E_DATA_DIR;
  if (dataDir?.includes('kadr-e2e-')) rmSync(dataDir, { recursive: true, force: true });
}
