import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { FILES_PREFIX, type Storage, type StoredObject } from './storage.ts';

export interface S3Config {
  bucket: string;
  /** S3_ENDPOINT: an S3-compatible server (MinIO, Ceph, R2…); null for AWS itself. */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO needs unless it has a domain per bucket. */
  forcePathStyle: boolean;
  /** Object keys are stored under this prefix inside the bucket ('' for none). */
  keyPrefix: string;
  /**
   * Where browsers reach the bucket (S3_PUBLIC_ENDPOINT); presigned URLs are made for it. Defaults to `endpoint`
   * — set it when the app reaches the bucket by an internal name the browser cannot resolve.
   */
  publicEndpoint: string | null;
  /** How long a presigned media URL stays valid (S3_PRESIGN_TTL_S). */
  presignTtlSeconds: number;
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  pdf: 'application/pdf',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

export const contentTypeOf = (key: string) =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/** Multipart part size: uploads hold at most `queueSize` parts in memory, whatever the object's size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

export interface S3Storage extends Storage {
  readonly client: S3Client;
  readonly bucket: string;
  /**
   * A presigned GET URL for browsers. Content-addressed objects never change, so the signature is dated at the
   * start of the current TTL window: the same URL comes back all window long and browsers cache the bytes.
   */
  signedUrl(key: string): Promise<string>;
}

/**
 * Storage in an S3 bucket. The AWS SDK (~4.6 MB of heap and ~12 MB resident once loaded) is imported here, when a
 * server is configured for S3, and not by every server that keeps its media on disk (ADR 0053).
 */
export async function s3Storage(config: S3Config): Promise<S3Storage> {
  const [
    {
      DeleteObjectCommand,
      GetObjectCommand,
      HeadObjectCommand,
      ListObjectsV2Command,
      S3Client,
      S3ServiceException,
    },
    { Upload },
    { getSignedUrl },
  ] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  const notFound = (error: unknown) =>
    error instanceof S3ServiceException &&
    (error.name === 'NotFound' || error.name === 'NoSuchKey' || error.$metadata?.httpStatusCode === 404);
  const makeClient = (endpoint: string | null) =>
    new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(endpoint ? { endpoint } : {}),
      ...(config.accessKeyId && config.secretAccessKey
        ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
        : {}),
      // MinIO and most S3-compatible servers do not speak the newer default CRC32 request checksums everywhere.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  const client = makeClient(config.endpoint);
  const publicEndpoint = config.publicEndpoint ?? config.endpoint;
  const signer = publicEndpoint === config.endpoint ? client : makeClient(publicEndpoint);
  const Bucket = config.bucket;
  const prefix = config.keyPrefix;
  const full = (key: string) => {
    if (key.split('/').some((part) => part === '..' || part === '.') || key.startsWith('/')) {
      throw new Error(`storage key escapes root: ${key}`);
    }
    return prefix + key;
  };

  const stat = async (key: string): Promise<StoredObject | null> => {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  };

  const ttl = config.presignTtlSeconds;
  const signed = new Map<string, { window: number; url: string }>();

  return {
    client,
    bucket: Bucket,
    async put(key, body) {
      if (await stat(key)) {
        // Same key, same bytes (content-addressed): already stored. Drain a stream so its source is not left hanging.
        if (!Buffer.isBuffer(body)) body.resume();
        return;
      }
      const upload = new Upload({
        client,
        queueSize: QUEUE_SIZE,
        partSize: PART_SIZE,
        leavePartsOnError: false,
        params: {
          Bucket,
          Key: full(key),
          Body: body,
          ContentType: contentTypeOf(key),
          CacheControl: 'public, max-age=31536000, immutable',
        },
      });
      await upload.done();
    },
    async get(key, range) {
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: full(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        return (res.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (notFound(error)) return null;
        throw error;
      }
    },
    stat,
    async exists(key) {
      return (await stat(key)) !== null;
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async *list(folder) {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix + folder, ContinuationToken }),
        );
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield {
            key: o.Key.slice(prefix.length),
            size: o.Size ?? 0,
            modifiedAt: o.LastModified ?? new Date(0),
          };
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
    publicUrl: (key) => FILES_PREFIX + key,
    keyFromUrl: (url) => (url.startsWith(FILES_PREFIX) ? url.slice(FILES_PREFIX.length) : null),
    async signedUrl(key) {
      const window = Math.floor(Date.now() / 1000 / ttl);
      const cached = signed.get(key);
      if (cached?.window === window) return cached.url;
      const url = await getSignedUrl(signer, new GetObjectCommand({ Bucket, Key: full(key) }), {
        // Valid for the rest of this window and one more full TTL, whichever moment in the window it is used.
        signingDate: new Date(window * ttl * 1000),
        expiresIn: ttl * 2,
      });
      if (signed.size > 10_000) signed.clear();
      signed.set(key, { window, url });
      return url;
    },
  };
}

export function isS3Storage(storage: Storage): storage is S3Storage {
  return typeof (storage as Partial<S3Storage>).signedUrl === 'function';
}
