/**
 * Vitest global setup: builds the web app (web/dist) once before the test files run, when its
 * sources changed since the last build, so that tests serving it (test/web, test/browser) never
 * race each other on the build.
 */
import { buildWeb } from '../../web/build.mjs';

export default async function setup() {
  await buildWeb({ quiet: true });
}
