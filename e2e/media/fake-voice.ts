import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A sound for Chromium's fake microphone that talks like a person. The default fake device beeps for 20 ms
 * every 500 ms, too little for LiveKit to count anyone as speaking, and a mostly silent source lets Opus DTX
 * send almost nothing, so neither a speaking indicator nor the continuity of received audio can be checked
 * with it. A steady tone does not do either: the browser's noise suppression takes it for noise and fades it
 * out within seconds. So this is a 2.4 s loop of ten voiced "syllables" (a pitch from 140 to 250 Hz with
 * harmonics, 180–260 ms each, soft attack and decay) with short pauses between them, 48 kHz mono 16-bit, for
 * `--use-file-for-fake-audio-capture` (which loops the file).
 */
export function fakeVoiceWav(dir = os.tmpdir()): string {
  const file = path.join(dir, 'kadr-fake-voice-v2.wav');
  if (fs.existsSync(file)) return file;
  const rate = 48_000;
  const syllables = [
    [140, 0.22],
    [180, 0.18],
    [220, 0.26],
    [160, 0.2],
    [200, 0.24],
    [250, 0.18],
    [170, 0.22],
    [210, 0.2],
    [190, 0.26],
    [150, 0.2],
  ] as const;
  const pause = 0.04;
  const total = syllables.reduce((sum, [, length]) => sum + length + pause, 0);
  const samples = Math.round(total * rate);
  const pcm = Buffer.alloc(samples * 2);
  let at = 0;
  for (const [pitch, length] of syllables) {
    const count = Math.round(length * rate);
    for (let i = 0; i < count && at + i < samples; i += 1) {
      const t = i / rate;
      const envelope = Math.min(1, t / 0.02, (length - t) / 0.03);
      // A glide of the pitch within the syllable, as speech has.
      const f = pitch * (1 + 0.08 * Math.sin((Math.PI * t) / length));
      const voiced =
        Math.sin(2 * Math.PI * f * t) +
        0.6 * Math.sin(2 * Math.PI * 2 * f * t) +
        0.35 * Math.sin(2 * Math.PI * 3 * f * t) +
        0.2 * Math.sin(2 * Math.PI * 5 * f * t);
      pcm.writeInt16LE(Math.round((voiced / 2.15) * envelope * 0.6 * 32767), (at + i) * 2);
    }
    at += count + Math.round(pause * rate);
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
