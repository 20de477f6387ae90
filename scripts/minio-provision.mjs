// The pinned MinIO server that the storage tests (and `npm run cluster`) run against, built by `setup:minio`.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The Go module proxy serves github.com/minio/minio only as pseudo-versions (MinIO stopped tagging Go-module
 * releases), so the pin is one: the commit of 2026-02-12.
 */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
export const MINIO_MODULE = 'github.com/minio/minio';
const root = path.resolve(import.meta.dirname, '..');
export const minioTarget = path.join(root, '.tools/bin/minio');
/** The pin the binary was built from (the binary itself reports "DEVELOPMENT" for module builds). */
export const minioStamp = `${minioTarget}.version`;

/** The pin of the installed binary, or null when it is missing. */
export function installedMinioVersion() {
  if (!fs.existsSync(minioTarget) || !fs.existsSync(minioStamp)) return null;
  return fs.readFileSync(minioStamp, 'utf8').trim() || null;
}
