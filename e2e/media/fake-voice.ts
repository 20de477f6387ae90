import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A sound for Chromium's fake microphone that never goes quiet. The default fake device beeps for 20 ms
 * every 500 ms, too little for LiveKit to count anyone as speaking, and a mostly silent source lets Opus DTX
 * send almost nothing, so neither a speaking indicator nor the continuity of received audio can be
 * checked with it. This is a 2 s loop of a 220 Hz voice-like tone (with harmonics) swelling at 3 Hz
 * between half and full loudness, 48 kHz mono 16-bit, for `--use-file-for-fake-audio-capture` (which
 * loops the file).
 */
export function fakeVoiceWav(dir = os.tmpdir()): string {
  const file = path.join(dir, 'kadr-fake-voice.wav');
  if (fs.existsSync(file)) return file;
  const rate = 48_000;
  const samples = rate * 2;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    const t = i / rate;
    const swell = 0.75 + 0.25 * Math.sin(2 * Math.PI * 3 * t);
    const tone =
      Math.sin(2 * Math.PI * 220 * t) +
      0.5 * Math.sin(2 * Math.PI * 440 * t) +
      0.25 * Math.sin(2 * Math.PI * 660 * t);
    pcm.writeInt16LE(Math.round((tone / 1.75) * swell * 0.5 * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, Buffer.concat([header, pcm]));
  fs.renameSync(partial, file);
  return file;
}
