/**
 * Reading one key of a target's options (`platformSpecificData`) by a dotted path, such as
 * `event.schedule.startDate`. Apart from the platforms' option descriptions (./platform-options.ts),
 * so that code which only reads options (the composer's preview, which a client's review page loads
 * too) does not carry every platform's descriptions. Pure.
 */

/** The value at a dotted `key` of the options (undefined where a step of the path is missing). */
export function getOption(data: Readonly<Record<string, unknown>> | undefined, key: string): unknown {
  let v: unknown = data;
  for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}
