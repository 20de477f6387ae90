import { magicKind } from '../media/upload/sniff.ts';

/** What an attachment is by its bytes: a media kind for the shared processing, or a document type we accept. */
export type AttachmentKind =
  | { kind: 'gif' }
  | { kind: 'image' }
  | { kind: 'video' }
  | { kind: 'voice' }
  | { kind: 'document'; extension: DocumentExtension };

export type DocumentExtension = 'pdf' | 'zip' | 'mp3' | 'ogg' | 'flac' | 'wav' | 'txt';

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

/** Plain text: valid UTF-8 without NUL or other control bytes (tabs and line breaks aside). */
function isText(head: Buffer): boolean {
  if (head.length === 0) return false;
  for (const byte of head) if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  // A multi-byte character may be cut at the end of the sample; drop up to 3 trailing bytes before decoding.
  for (let cut = 0; cut <= 3 && cut < head.length; cut += 1) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, head.length - cut));
      return true;
    } catch {}
  }
  return false;
}

/** Documents recognised by magic bytes; anything else (executables, unknown binaries) is refused. */
export function documentExtension(head: Buffer): DocumentExtension | null {
  if (ascii(head, 0, 5) === '%PDF-') return 'pdf';
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) return 'zip';
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (ascii(head, 0, 4) === 'fLaC') return 'flac';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (isText(head)) return 'txt';
  return null;
}

/** Classifies the first bytes of an upload (the decoders confirm media kinds afterwards). */
export function attachmentKind(head: Buffer): AttachmentKind | null {
  if (ascii(head, 0, 4) === 'GIF8') return { kind: 'gif' };
  const media = magicKind(head);
  if (media === 'image') return { kind: 'image' };
  if (media === 'video') return { kind: 'video' };
  const extension = documentExtension(head);
  return extension ? { kind: 'document', extension } : null;
}

/** A voice recording's container by its first bytes: WebM/Matroska, Ogg, MP4/M4A, WAV or MP3 (ffprobe confirms). */
export function isVoiceContainer(head: Buffer): boolean {
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return true;
  if (ascii(head, 4, 8) === 'ftyp') return true;
  const doc = documentExtension(head);
  return doc === 'ogg' || doc === 'wav' || doc === 'mp3';
}
