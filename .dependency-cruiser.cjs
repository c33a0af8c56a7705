/**
 * Herald's architecture on one page (docs/architecture.md explains it). `npm run check:deps`
 * runs dependency-cruiser with these rules in `npm test`; a forbidden import fails the build.
 *
 *   src/shared      pure code that web, sim and the server all use (plans, permissions,
 *                   platform ids and capabilities, post rules, docs content)
 *   src/core        no I/O: ids, errors, time, queue slots, crypto
 *   src/infra       process-level tools: ffprobe, the SSRF-guarded fetch, the mailer
 *   src/storage     database pool, migrations, media storage backends
 *   src/platforms   one folder per platform's API (adapters); imports core and shared only
 *   src/observability  Prometheus metrics and their /metrics endpoint
 *   src/clips       AI clipping: ffmpeg analysis, scoring, rendering and the clip worker
 *   src/sandbox     starts the simulators in-process
 *   src/modules     one folder per domain: routes -> service -> repository
 *   src/publishing  worker, publisher, reconciler, token refresh; depends on posts, never the reverse
 *   src/http        the app factory, hooks, error mapping
 *   src/cli         the `herald` command (bin/herald.js)
 *   web/, sim/      import only src/shared from the server side
 *
 * MAY_IMPORT below is the table "Who may import what" of docs/architecture.md: change both
 * together. layerRules() turns each row into a rule forbidding every other place in src/.
 */

/** The places of src/ the table names, as paths. */
const PLACES = {
  shared: '^src/shared/',
  core: '^src/core/',
  'config.ts': '^src/config(\\.test)?\\.ts$',
  infra: '^src/infra/',
  storage: '^src/storage/',
  platforms: '^src/platforms/',
  observability: '^src/observability/',
  clips: '^src/clips/',
  sandbox: '^src/sandbox/',
  modules: '^src/modules/',
  publishing: '^src/publishing/',
  http: '^src/http/',
  'route-kit': '^src/route-kit/',
  'services.ts': '^src/services\\.ts$',
  'runtime.ts': '^src/runtime\\.ts$',
  'main.ts': '^src/main\\.ts$',
  cli: '^src/cli/',
  // Parts of a folder that a row may import without the rest of it.
  'modules/{posts,accounts,webhooks,logs}': '^src/modules/(posts|accounts|webhooks|logs)/',
  'modules/video-clips/service.ts': '^src/modules/video-clips/service\\.ts$',
};

/** The layers most rows build on. */
const BASE = ['shared', 'core', 'config.ts', 'infra', 'storage'];

/**
 * Row -> the other places of src/ it may import (a place always imports itself; its unit tests
 * beside the code follow its row). `{ place, typeOnly: true }`: `import type` only.
 */
const MAY_IMPORT = {
  shared: [],
  core: ['shared'],
  'config.ts': ['shared'],
  infra: ['shared', 'core', 'config.ts'],
  storage: ['shared', 'core', 'config.ts', 'infra'],
  platforms: ['shared', 'core'],
  observability: ['shared', 'core', 'config.ts', 'storage'],
  clips: ['shared', 'core', 'config.ts', 'infra', { place: 'modules/video-clips/service.ts', typeOnly: true }],
  sandbox: ['shared', 'core', 'config.ts', 'platforms'],
  modules: [...BASE, 'platforms', 'clips', 'route-kit', { place: 'services.ts', typeOnly: true }],
  publishing: [...BASE, 'platforms', 'observability', 'modules/{posts,accounts,webhooks,logs}'],
  'route-kit': ['shared', 'core'],
  http: [...BASE, 'observability', 'route-kit', 'modules', { place: 'services.ts', typeOnly: true }],
  'services.ts': [...BASE, 'platforms', 'observability', 'clips', 'sandbox', 'modules', 'publishing'],
  'runtime.ts': BASE,
  'main.ts': [...BASE, 'platforms', 'observability', 'clips', 'sandbox', 'modules', 'publishing', 'http', 'services.ts', 'runtime.ts'],
  cli: [...BASE, 'platforms', 'observability', 'clips', 'sandbox', 'modules', 'publishing', 'http', 'services.ts', 'runtime.ts', 'main.ts'],
};

const ruleId = (place) => place.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');

/** One rule per row of MAY_IMPORT (shared's row is `shared-is-pure`), and one per type-only place. */
function layerRules() {
  const rules = [];
  for (const [row, may] of Object.entries(MAY_IMPORT)) {
    const places = may.map((m) => (typeof m === 'string' ? m : m.place));
    const list = may.map((m) => (typeof m === 'string' ? m : `${m.place} (types only)`)).join(', ');
    if (row !== 'shared') {
      rules.push({
        name: `${ruleId(row)}-imports-its-row-only`,
        comment: `src/${row} may import, besides itself: ${list} (docs/architecture.md, "Who may import what").`,
        severity: 'error',
        from: { path: PLACES[row] },
        to: { path: '^src/', pathNot: [PLACES[row], ...places.map((p) => PLACES[p])] },
      });
    }
    for (const m of may) {
      if (typeof m === 'string' || !m.typeOnly) continue;
      rules.push({
        name: `${ruleId(row)}-imports-${ruleId(m.place)}-types-only`,
        comment: `src/${row} may import only types from src/${m.place} (docs/architecture.md, "Who may import what").`,
        severity: 'error',
        from: { path: PLACES[row] },
        to: { path: PLACES[m.place], dependencyTypesNot: ['type-only'] },
      });
    }
  }
  rules.push({
    name: 'src-places-have-a-row',
    comment: 'Every folder and root file of src/ has its row in "Who may import what" (docs/architecture.md) and in MAY_IMPORT.',
    severity: 'error',
    from: { path: '^src/', pathNot: Object.keys(MAY_IMPORT).map((row) => PLACES[row]) },
    to: {},
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-cycles-in-src',
      comment: 'No import cycles anywhere in src/ (type-only imports included: a cycle is a knot either way).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-is-pure',
      comment: 'src/shared is imported by the browser build and the simulators: only itself, no server code, no Node built-ins.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', 'node_modules/'] },
    },
    {
      name: 'shared-no-node-builtins',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'web-imports-shared-only',
      comment: 'The web app reaches the server only through /v1 and src/shared.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'sim-imports-shared-only',
      comment: 'Simulators speak the platforms\' APIs; from the server side they use only src/shared.',
      severity: 'error',
      from: { path: '^sim/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'server-does-not-import-web-or-sim',
      comment: 'The sandbox starts the simulators (src/sandbox is the one place allowed to; unit tests beside the code may use them too).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/sandbox/', '\\.test\\.ts$'] },
      to: { path: ['^web/', '^sim/'] },
    },
    {
      name: 'modules-reach-platforms-through-the-contract',
      comment: 'Modules, the sandbox, publishing and the HTTP app know a platform only through the registry and the contract (src/platforms/types.ts, ' +
        'registry.ts, connect-shape.ts, account-resources.ts, oauth.ts and the shared helpers beside them), never a platform folder: connecting is driven by ' +
        'each platform\'s connect shape, its account lists and clone step by its account resources (docs/decisions/0051 and 0053).',
      severity: 'error',
      from: { path: '^src/(modules|sandbox|publishing|http|services\\.ts)' },
      to: { path: '^src/platforms/[^/]+/' },
    },
    {
      name: 'posts-do-not-import-publishing',
      comment: 'Publishing depends on posts; posts reach it through the PublishingPort wired in src/services.ts.',
      severity: 'error',
      from: { path: '^src/modules/' },
      to: { path: '^src/publishing/' },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^(src|sim|web/src)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^test/' },
    },
    ...layerRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^web/dist/', '^node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
