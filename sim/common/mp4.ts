/**
 * The duration of an MP4/MOV file read from its movie header (`moov` -> `mvhd`). The reader
 * lives in media-info.ts (with the rest of the simulators' media sniffing); this module keeps
 * the old import path working.
 */
export { mp4DurationSeconds } from './media-info.ts';
