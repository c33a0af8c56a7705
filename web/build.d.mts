/** Hash of the web app's sources (web/, src/core, permissions, package-lock.json). */
export function sourceHash(): string;
/** Builds web/dist when the sources changed since the last build; returns true when it built. */
export function buildWeb(opts?: { force?: boolean; quiet?: boolean }): Promise<boolean>;
