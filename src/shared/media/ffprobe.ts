/**
 * Media metadata from ffprobe's JSON output (`-show_format -show_streams`): duration,
 * displayed dimensions and codecs. Pure: the callers run ffprobe (Herald's infrastructure,
 * src/infra/probe.ts, and the simulators, sim/common/probe.ts).
 */

/** Stored in `media_files.metadata` (jsonb); every field is optional. */
export interface MediaMetadata {
  /** Playing time in seconds (videos, animated GIFs); absent for still images and documents. */
  duration?: number;
  /** Displayed width in pixels (after the rotation in the file's side data / tags). */
  width?: number;
  /** Displayed height in pixels. */
  height?: number;
  /** ffprobe codec name of the first video stream, e.g. `h264`, `hevc`, `vp9`, `png`, `mjpeg`. */
  videoCodec?: string;
  /** ffprobe codec name of the first audio stream, e.g. `aac`, `opus`; absent when silent. */
  audioCodec?: string;
  /** Average frame rate of the first video stream, frames per second. */
  frameRate?: number;
  /** Frames of an animated GIF (counted from its blocks, src/shared/media/gif.ts). */
  frames?: number;
  /** Rotation the player applies, degrees (0, 90, 180, 270). */
  rotation?: number;
  /** ffprobe's container name(s), e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  container?: string;
  /** Overall bit rate, bits per second. */
  bitRate?: number;
  /** Why nothing could be read (ffprobe missing, timed out, or the file is not decodable). */
  probeError?: string;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number | string }>;
}
export interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { duration?: string; format_name?: string; bit_rate?: string };
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

function rate(r: string | undefined): number | undefined {
  if (!r) return undefined;
  const [a, b] = r.split('/').map(Number);
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0 || a === 0) return undefined;
  return Math.round((a / b) * 1000) / 1000;
}

/** Turns ffprobe's JSON (`-show_format -show_streams`) into {@link MediaMetadata}. Pure; exported for tests. */
export function metadataFromFfprobe(out: FfprobeOutput, mimeType: string): MediaMetadata {
  const streams = out.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  const m: MediaMetadata = {};
  const still = mimeType.startsWith('image/') && mimeType !== 'image/gif';
  const duration = num(out.format?.duration) ?? num(video?.duration);
  if (duration !== undefined && !still) m.duration = Math.round(duration * 1000) / 1000;
  if (video) {
    let rotation = 0;
    for (const sd of video.side_data_list ?? []) if (num(sd.rotation) !== undefined) rotation = num(sd.rotation)!;
    if (video.tags?.rotate && num(video.tags.rotate) !== undefined) rotation = num(video.tags.rotate)!;
    rotation = ((Math.round(rotation) % 360) + 360) % 360;
    const swap = rotation === 90 || rotation === 270;
    if (video.width) m[swap ? 'height' : 'width'] = video.width;
    if (video.height) m[swap ? 'width' : 'height'] = video.height;
    if (video.codec_name) m.videoCodec = video.codec_name;
    if (!still) {
      const fr = rate(video.avg_frame_rate) ?? rate(video.r_frame_rate);
      if (fr !== undefined) m.frameRate = fr;
      if (rotation) m.rotation = rotation;
    }
  }
  if (audio?.codec_name) m.audioCodec = audio.codec_name;
  if (out.format?.format_name) m.container = out.format.format_name;
  const bitRate = num(out.format?.bit_rate);
  if (bitRate !== undefined && !still) m.bitRate = bitRate;
  return m;
}
