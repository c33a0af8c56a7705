/**
 * A video's poster frame for previews and thumbnails: the frame at 0.1 s (or the middle of a
 * shorter video), read once per URL by a hidden <video> and drawn on a canvas into a JPEG data
 * URL. One video is read at a time and its connection is closed after the frame is drawn:
 * a page of <video preload="metadata"> elements each holds a connection open, and past the
 * browser's six per host the later ones never show a frame (grey boxes).
 */

/** Longest edge of a poster, in CSS pixels (previews and thumbnails are smaller). */
const POSTER_MAX_EDGE = 640;
/** Longest wait for one video's frame (ms); past it the video has no poster. */
const POSTER_TIMEOUT_MS = 15_000;

const posters = new Map<string, Promise<string | null>>();
/** Each read video's intrinsic size (videoWidth × videoHeight at loadedmetadata), known even when its frame cannot be drawn. */
const sizes = new Map<string, { width: number; height: number }>();
let queue: Promise<unknown> = Promise.resolve();

/** Draws the frame of `url` at 0.1 s into a JPEG data URL; null when the browser cannot decode or read it (never rejects). */
function readPoster(url: string): Promise<string | null> {
  return new Promise((resolve) => {
    const v = document.createElement('video');
    let settled = false;
    const done = (poster: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Closes the connection: a <video> with a source keeps reading it.
      v.removeAttribute('src');
      v.load();
      resolve(poster);
    };
    const timer = setTimeout(() => done(null), POSTER_TIMEOUT_MS);
    v.muted = true;
    v.preload = 'auto';
    v.playsInline = true;
    // Another origin (object storage) must allow reading the pixels, else the canvas is tainted.
    if (new URL(url, location.href).origin !== location.origin) v.crossOrigin = 'anonymous';
    v.onloadedmetadata = () => {
      if (v.videoWidth > 0 && v.videoHeight > 0) sizes.set(url, { width: v.videoWidth, height: v.videoHeight });
      v.currentTime = Number.isFinite(v.duration) && v.duration > 0 ? Math.min(0.1, v.duration / 2) : 0;
    };
    v.onseeked = () => {
      try {
        const scale = Math.min(1, POSTER_MAX_EDGE / Math.max(v.videoWidth, v.videoHeight, 1));
        const canvas = document.createElement('canvas');
        canvas.width = Math.max(1, Math.round(v.videoWidth * scale));
        canvas.height = Math.max(1, Math.round(v.videoHeight * scale));
        canvas.getContext('2d')?.drawImage(v, 0, 0, canvas.width, canvas.height);
        done(canvas.toDataURL('image/jpeg', 0.8));
      } catch {
        done(null);
      }
    };
    v.onerror = () => done(null);
    v.src = url;
  });
}

/** The poster frame of the video at `url` (a JPEG data URL), read once per URL and page; null when it cannot be read. */
export function videoPoster(url: string): Promise<string | null> {
  let p = posters.get(url);
  if (!p) {
    p = queue.then(() => readPoster(url));
    queue = p;
    posters.set(url, p);
  }
  return p;
}

/** The intrinsic size of the video at `url`, read with its poster frame (same single read); null when the browser cannot read it. */
export function videoSize(url: string): Promise<{ width: number; height: number } | null> {
  return videoPoster(url).then(() => sizes.get(url) ?? null);
}
