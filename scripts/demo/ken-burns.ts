import { spawn } from 'node:child_process';

/**
 * A portrait 720×1280 video from one photograph: a slow pan or zoom (Ken Burns) over a soft
 * brown-noise bed with a gentle fade, H.264/AAC — what a short video post looks like.
 */
export function kenBurnsVideo(
  ffmpeg: string,
  photo: string,
  out: string,
  options: { pan: 'left' | 'right' | 'zoom'; seconds: number },
): Promise<void> {
  const fps = 30;
  const frames = options.seconds * fps;
  // Scale up first so zoompan has pixels to move across (it crops inside the scaled frame).
  const motion = {
    zoom: `z='min(zoom+0.0012,1.25)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)'`,
    left: `z='1.2':x='(iw-iw/zoom)*(1-on/${frames})':y='ih/2-(ih/zoom/2)'`,
    right: `z='1.2':x='(iw-iw/zoom)*on/${frames}':y='ih/2-(ih/zoom/2)'`,
  }[options.pan];
  const video = `scale=1080:1920:force_original_aspect_ratio=increase,crop=1080:1920,zoompan=${motion}:d=${frames}:s=720x1280:fps=${fps},fade=in:0:15,fade=out:${frames - 15}:15,format=yuv420p`;
  const audio = `anoisesrc=color=brown:amplitude=0.08:duration=${options.seconds},lowpass=f=900,afade=in:d=1,afade=out:st=${options.seconds - 1}:d=1`;
  const args = [
    '-v',
    'error',
    '-y',
    '-loop',
    '1',
    '-i',
    photo,
    '-f',
    'lavfi',
    '-i',
    audio,
    '-filter:v',
    video,
    '-t',
    String(options.seconds),
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-shortest',
    '-movflags',
    '+faststart',
    out,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${stderr}`))));
  });
}
