/**
 * What the composer measures of a file the user picked, in the browser, so the platform rules
 * on pixels, aspect ratio and duration (src/shared/rules/) are checked while composing, before
 * the server probes the stored file with ffprobe and checks them again.
 */

/** Pixels and, for a video, its duration in seconds; empty when the browser cannot read the file. */
export interface LocalMediaInfo {
  width?: number;
  height?: number;
  durationSeconds?: number;
}

/** Reads an image's natural size or a video's size and duration from a local file (never throws; gives up after 10 s). */
export function probeLocalFile(file: File): Promise<LocalMediaInfo> {
  const kind = file.type.startsWith('image/') ? 'image' : file.type.startsWith('video/') ? 'video' : null;
  if (!kind || typeof URL.createObjectURL !== 'function') return Promise.resolve({});
  const url = URL.createObjectURL(file);
  return new Promise<LocalMediaInfo>((resolve) => {
    const done = (info: LocalMediaInfo) => { clearTimeout(timer); URL.revokeObjectURL(url); resolve(info); };
    const timer = setTimeout(() => done({}), 10_000);
    if (kind === 'image') {
      const img = new Image();
      img.onload = () => done({ width: img.naturalWidth, height: img.naturalHeight });
      img.onerror = () => done({});
      img.src = url;
    } else {
      const v = document.createElement('video');
      v.preload = 'metadata';
      v.onloadedmetadata = () => done({ width: v.videoWidth || undefined, height: v.videoHeight || undefined, durationSeconds: Number.isFinite(v.duration) ? v.duration : undefined });
      v.onerror = () => done({});
      v.src = url;
    }
  });
}
