/**
 * Test videos made with ffmpeg's lavfi sources, and measurements of the clips (ffprobe, PSNR),
 * for the AI clipping tests. Sources are small (320x180, 25 fps, ultrafast) so the tests stay quick.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One stretch of a test video: `busy` is a moving test pattern with loud noise; `still` a flat colour with silence. */
export interface Stretch { kind: 'busy' | 'still'; seconds: number; colour?: string }

/**
 * Writes an H.264/AAC MP4 made of the stretches in order (320x180 by default).
 * `audio: false` leaves the audio track out.
 */
export async function makeVideo(file: string, stretches: Stretch[], opts: { audio?: boolean; size?: string; rate?: number } = {}): Promise<void> {
  const size = opts.size ?? '320x180';
  const rate = opts.rate ?? 25;
  const inputs: string[] = [];
  const labels: string[] = [];
  stretches.forEach((s, i) => {
    inputs.push('-f', 'lavfi', '-i', s.kind === 'busy'
      ? `testsrc2=s=${size}:r=${rate}:d=${s.seconds}`
      : `color=c=${s.colour ?? 'black'}:s=${size}:r=${rate}:d=${s.seconds}`);
    if (opts.audio !== false) {
      inputs.push('-f', 'lavfi', '-i', s.kind === 'busy'
        ? `anoisesrc=r=48000:a=0.5:d=${s.seconds},aformat=channel_layouts=stereo`
        : `anullsrc=r=48000:cl=stereo:d=${s.seconds}`);
      labels.push(`[${2 * i}:v][${2 * i + 1}:a]`);
    } else labels.push(`[${i}:v]`);
  });
  const a = opts.audio !== false ? 1 : 0;
  const graph = `${labels.join('')}concat=n=${stretches.length}:v=1:a=${a}[v]${a ? '[a]' : ''}`;
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', graph, '-map', '[v]', ...(a ? ['-map', '[a]'] : []),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(rate * 2), '-pix_fmt', 'yuv420p', ...(a ? ['-c:a', 'aac', '-b:a', '64k'] : []), '-movflags', '+faststart', file]);
}

/** ffprobe's view of a clip: stream codecs, pixel size, duration (s) and whether the index is at the front. */
export async function probeClip(file: string): Promise<{ videoCodec: string; audioCodec: string; width: number; height: number; duration: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  const j = JSON.parse(stdout) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { duration: string } };
  const v = j.streams.find((s) => s.codec_type === 'video')!;
  const a = j.streams.find((s) => s.codec_type === 'audio');
  return { videoCodec: v.codec_name, audioCodec: a?.codec_name ?? '', width: v.width!, height: v.height!, duration: Number(j.format.duration) };
}

/**
 * PSNR (dB) between the frames at `at` seconds of two videos of the same size, over a band of
 * rows given as fractions of the height (top, bottom). Identical pixels give 100 or more.
 */
export async function bandPsnr(a: string, b: string, at: number, band: [number, number]): Promise<number> {
  const crop = `crop=iw:ih*${(band[1] - band[0]).toFixed(3)}:0:ih*${band[0].toFixed(3)}`;
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostdin', '-ss', String(at), '-i', a, '-ss', String(at), '-i', b,
    '-filter_complex', `[0:v]${crop}[x];[1:v]${crop}[y];[x][y]psnr`, '-frames:v', '1', '-f', 'null', '-']);
  const m = /average:(inf|[\d.]+)/.exec(stderr);
  if (!m) throw new Error(`no PSNR in ffmpeg output: ${stderr.slice(-500)}`);
  return m[1] === 'inf' ? 1000 : Number(m[1]);
}

/** Whether the MP4's moov box comes before its mdat box (fast start). */
export function isFastStart(bytes: Buffer): boolean {
  const moov = bytes.indexOf('moov');
  const mdat = bytes.indexOf('mdat');
  return moov > 0 && (mdat < 0 || moov < mdat);
}
