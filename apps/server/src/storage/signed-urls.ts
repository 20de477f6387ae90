import { createHmac, timingSafeEqual } from 'node:crypto';
import { MESSAGE_FILES_PATH } from '@kadr/contract/messenger/routes';

/** Signed URLs live for one window and at most two: stable within a window, so the browser's private cache works. */
export const SIGNED_URL_WINDOW_MS = 6 * 60 * 60 * 1000;

export type FileVariant = 'file' | 'thumb';

export interface UrlSigner {
  /** `/api/v1/messages/files/<id>[/thumb]?e=<expiry s>&s=<signature>` */
  url(fileId: number, variant: FileVariant, now?: number): string;
  verify(fileId: number, variant: FileVariant, expires: number, signature: string, now?: number): boolean;
}

export const PRIVATE_FILES_PATH = MESSAGE_FILES_PATH;

export function urlSigner(secret: string, apiPrefix: string): UrlSigner {
  const mac = (fileId: number, variant: FileVariant, expires: number) =>
    createHmac('sha256', secret).update(`${fileId}.${variant}.${expires}`).digest('base64url');
  return {
    url(fileId, variant, now = Date.now()) {
      const expires =
        Math.ceil((now + SIGNED_URL_WINDOW_MS) / SIGNED_URL_WINDOW_MS) * (SIGNED_URL_WINDOW_MS / 1000);
      const suffix = variant === 'thumb' ? '/thumb' : '';
      return `${apiPrefix}${PRIVATE_FILES_PATH}/${fileId}${suffix}?e=${expires}&s=${mac(fileId, variant, expires)}`;
    },
    verify(fileId, variant, expires, signature, now = Date.now()) {
      if (!Number.isInteger(expires) || expires * 1000 < now) return false;
      const expected = Buffer.from(mac(fileId, variant, expires));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

let current: UrlSigner | null = null;

/** Set once at start (the secret is shared by every node through the database). */
export function setAttachmentSigner(signer: UrlSigner | null) {
  current = signer;
}

/** The URL a chat member loads an attachment from; the stored URL when no signer is set (unit tests). */
export function attachmentUrl(fileId: number, variant: FileVariant, stored: string): string {
  return current ? current.url(fileId, variant) : stored;
}
