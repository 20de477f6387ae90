import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { AuthSession, Message, MessageAttachment } from '@kadr/contract';
import { apiUrl, messengerRoutes } from '@kadr/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAttachment } from '../src/modules/messenger/mappers.ts';
import { bearer, createTestApp, registerUser, type TestApp, tempDir } from './helpers.ts';
import { fileParts, multipart } from './media-helpers.ts';
import { messenger } from './messenger-fixtures.ts';

let t: TestApp;
let m: ReturnType<typeof messenger>;
let a: AuthSession;
let b: AuthSession;
let c: AuthSession;
let work: string;

beforeAll(async () => {
  t = await createTestApp({ AUTH_RATE_LIMIT_PER_IP: '1000' });
  m = messenger(t.app);
  [a, b, c] = [await registerUser(t.app), await registerUser(t.app), await registerUser(t.app)];
  work = tempDir('kadr-voice-fixtures-');
}, 240_000);
afterAll(async () => {
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** What Chromium's MediaRecorder writes: WebM with Opus. 1.5 s of silence, then 1.5 s of a loud tone. */
function recording(): Buffer {
  const out = path.join(work, 'rec.webm');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'aevalsrc=if(lt(t\\,1.5)\\,0\\,0.8*sin(2*PI*440*t)):s=48000:d=3',
    '-c:a',
    'libopus',
    out,
  ]);
  return fs.readFileSync(out);
}

function videoClip(): Buffer {
  const out = path.join(work, 'clip.webm');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=160x120:rate=10:duration=1',
    '-f',
    'lavfi',
    '-i',
    'sine=duration=1',
    '-c:v',
    'libvpx',
    '-c:a',
    'libopus',
    '-shortest',
    out,
  ]);
  return fs.readFileSync(out);
}

async function upload(token: string, files: { name: string; data: Buffer }[], voice = true) {
  const body = multipart([...(voice ? [{ field: 'voice', data: '1' }] : []), ...fileParts(files)]);
  return t.app.inject({
    method: 'POST',
    url: apiUrl(messengerRoutes.attachments),
    headers: { ...bearer(token), ...body.headers },
    payload: body.payload,
  });
}

async function processed(res: { json(): unknown }): Promise<MessageAttachment[]> {
  const uploaded = (res.json() as { files: MessageAttachment[] }).files;
  await t.app.ctx.media.jobs.idle();
  const rows = await t.db.kysely
    .selectFrom('message_files')
    .selectAll()
    .where(
      'id',
      'in',
      uploaded.map((f) => f.id),
    )
    .execute();
  return uploaded.map((f) => toAttachment(rows.find((r) => r.id === f.id) as never));
}

const messageFileCount = async () =>
  Number(
    (
      await t.db.kysely
        .selectFrom('message_files')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('voice messages', () => {
  it('processes a WebM/Opus recording to AAC in .m4a with its duration and a waveform, for members only', async () => {
    const res = await upload(a.access_token, [{ name: 'voice.webm', data: recording() }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().files[0]).toMatchObject({ file_type: 'voice', status: 'processing' });
    const [file] = await processed(res);
    expect(file).toMatchObject({ file_type: 'voice', status: 'ready', thumbnail_url: null });
    expect(file?.duration).toBeGreaterThan(2.8);
    expect(file?.duration).toBeLessThan(3.2);
    // The waveform comes from the audio: the silent first half is flat, the tone in the second half is loud.
    const bars = file?.waveform ?? [];
    expect(bars).toHaveLength(64);
    expect(Math.max(...bars.slice(0, 28))).toBeLessThan(5);
    expect(Math.min(...bars.slice(36, 60))).toBeGreaterThan(70);

    const sent = await m.send(a.access_token, b.user.id, '', { attachment_ids: [file?.id] });
    expect(sent.statusCode).toBe(200);
    const message = sent.json().message as Message;
    const received = (await m.conversation(b.access_token, a.user.id)).messages.find(
      (x) => x.id === message.id,
    );
    const voice = received?.files[0];
    expect(voice).toMatchObject({ file_type: 'voice', waveform: bars, duration: file?.duration });
    // The chat list knows it is a voice message (the row says 'Голосовое сообщение', not 'Вложение').
    const row = (await m.chats(b.access_token)).find((x) => x.user_id === a.user.id);
    expect(row?.last_message).toMatchObject({ content: '', message_type: 'media', file_type: 'voice' });

    // The member fetches it: AAC in an MP4 container, the duration as ffprobe reads it.
    const got = await t.app.inject({ method: 'GET', url: voice?.file_url ?? '' });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('audio/mp4');
    const stored = path.join(work, 'got.m4a');
    fs.writeFileSync(stored, got.rawPayload);
    const probe = JSON.parse(
      execFileSync(
        'ffprobe',
        ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', stored],
        {
          encoding: 'utf8',
        },
      ),
    ) as {
      format: { format_name: string; duration: string };
      streams: { codec_type: string; codec_name: string }[];
    };
    expect(probe.format.format_name).toContain('mp4');
    expect(probe.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['audio:aac']);
    expect(Math.abs(Number(probe.format.duration) - 3)).toBeLessThan(0.2);

    // A non-member cannot read the chat, and an unsigned or re-signed URL is refused.
    expect(
      (
        await m.call(
          c.access_token,
          'GET',
          apiUrl(messengerRoutes.conversation, undefined, { other_user_id: a.user.id }),
        )
      ).json().messages ?? [],
    ).not.toContainEqual(expect.objectContaining({ id: message.id }));
    const [bare] = (voice?.file_url ?? '').split('?');
    expect((await t.app.inject({ method: 'GET', url: bare ?? '' })).statusCode).toBeGreaterThanOrEqual(400);
    const forged = (voice?.file_url ?? '').replace(
      /s=[^&]+/,
      's=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    );
    expect((await t.app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    // Deleted for everyone: even the signed URL stops working.
    expect(
      (
        await m.call(
          a.access_token,
          'DELETE',
          apiUrl(messengerRoutes.remove, { id: message.id }, { for: 'everyone' }),
        )
      ).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: voice?.file_url ?? '' })).statusCode).toBe(404);
  });

  it('refuses bad audio by content: garbage, a video with a picture, a text file, storing nothing', async () => {
    const before = await messageFileCount();
    const garbage = await upload(a.access_token, [{ name: 'voice.webm', data: Buffer.alloc(4000, 7) }]);
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().code).toBe('unsupported_media_type');
    // A WebM header over garbage: the container looks right, ffprobe finds no audio.
    const fake = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4000, 3)]);
    expect((await upload(a.access_token, [{ name: 'voice.webm', data: fake }])).statusCode).toBe(400);
    expect((await upload(a.access_token, [{ name: 'voice.webm', data: videoClip() }])).statusCode).toBe(400);
    expect(
      (await upload(a.access_token, [{ name: 'voice.ogg', data: Buffer.from('просто текст\n') }])).statusCode,
    ).toBe(400);
    expect(await messageFileCount()).toBe(before);
  });
});
