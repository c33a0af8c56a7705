/**
 * The media content-type allow-list (docs/decisions/0009) and the check
 * of a declared type against the type sniffed from the file's first bytes.
 */
export const ALLOWED_CONTENT_TYPES = [
  'image/jpeg', 'image/jpg', 'image/png', 'image/webp', 'image/gif',
  'video/mp4', 'video/mpeg', 'video/quicktime', 'video/avi', 'video/x-msvideo', 'video/webm', 'video/x-m4v',
  'application/pdf',
] as const;

/** Types that are the same format under different names (declared vs sniffed). */
const FAMILY: Record<string, string> = {
  'image/jpeg': 'jpeg', 'image/jpg': 'jpeg',
  'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif',
  // ISO base media file format: MP4, M4V and QuickTime share the container.
  'video/mp4': 'isobmff', 'video/x-m4v': 'isobmff', 'video/quicktime': 'isobmff',
  'video/mpeg': 'mpeg', 'video/mp2t': 'mpeg',
  'video/avi': 'avi', 'video/x-msvideo': 'avi', 'video/vnd.avi': 'avi',
  'video/webm': 'matroska', 'video/x-matroska': 'matroska',
  'application/pdf': 'pdf',
};

const CANONICAL: Record<string, string> = {
  jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif', isobmff: 'video/mp4', mpeg: 'video/mpeg',
  avi: 'video/x-msvideo', matroska: 'video/webm', pdf: 'application/pdf',
};

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/x-m4v': 'm4v',
  'video/quicktime': 'mov', 'video/mpeg': 'mpeg', 'video/x-msvideo': 'avi', 'video/webm': 'webm', 'application/pdf': 'pdf',
};

export function isAllowedContentType(t: string): boolean {
  return (ALLOWED_CONTENT_TYPES as readonly string[]).includes(t);
}

/**
 * Decides the stored content type. `declared` is the part's Content-Type (may be
 * application/octet-stream), `sniffed` what the bytes are (undefined when unknown).
 * Returns the type, or an error message naming the rule.
 */
export function resolveContentType(declared: string, sniffed: string | undefined): { ok: true; mimeType: string } | { ok: false; message: string } {
  const d = declared.toLowerCase().split(';')[0].trim();
  const allowedList = ALLOWED_CONTENT_TYPES.join(', ');
  if (!sniffed || !FAMILY[sniffed]) {
    return { ok: false, message: `Content type not allowed: the file's bytes are not one of the allowed formats (${allowedList}). Set a valid contentType.` };
  }
  if (d && d !== 'application/octet-stream') {
    if (!isAllowedContentType(d)) return { ok: false, message: `Content type not allowed: ${d}. Set a valid contentType (${allowedList}).` };
    if (FAMILY[d] !== FAMILY[sniffed]) return { ok: false, message: `The file's bytes are ${sniffed}, not the declared ${d}. Set a valid contentType.` };
    return { ok: true, mimeType: d === 'image/jpg' ? 'image/jpeg' : d === 'video/avi' ? 'video/x-msvideo' : d };
  }
  return { ok: true, mimeType: CANONICAL[FAMILY[sniffed]] };
}

export function mediaTypeOf(mime: string): 'image' | 'video' | 'gif' | 'document' {
  if (mime === 'image/gif') return 'gif';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  return 'document';
}

export function extensionFor(mime: string): string {
  return EXTENSION[mime] ?? 'bin';
}
