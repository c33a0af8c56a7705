/**
 * Herald's architecture on one page (docs/architecture.md explains it). `npm run check:deps`
 * runs dependency-cruiser with these rules in `npm test`; a forbidden import fails the build.
 *
 *   src/shared      pure code that web, sim and the server all use (plans, permissions,
 *                   platform ids and capabilities, post rules, docs content)
 *   src/core        no I/O: ids, errors, time, queue slots, crypto
 *   src/infra       process-level tools: ffprobe, the SSRF-guarded fetch
 *   src/storage     database pool, migrations, media storage backends
 *   src/platforms   one folder per platform's API (adapters); imports core and shared only
 *   src/modules     one folder per domain: routes -> service -> repository
 *   src/publishing  worker, publisher, reconciler, token refresh; depends on posts, never the reverse
 *   src/http        the app factory, hooks, error mapping
 *   web/, sim/      import only src/shared from the server side
 */
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
      name: 'platforms-import-core-and-shared-only',
      comment: 'Adapters speak one platform\'s API: no database, no modules, no HTTP app, no infra (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/platforms/' },
      to: { path: '^src/', pathNot: ['^src/platforms/', '^src/core/', '^src/shared/'] },
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
      name: 'core-has-no-io',
      comment: 'src/core holds rules without I/O: it imports only itself and shared.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: ['^src/core/', '^src/shared/'] },
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
      name: 'modules-do-not-import-http-app',
      comment: 'Data flows route -> service -> repository; the app factory wires modules, not the reverse.',
      severity: 'error',
      from: { path: '^src/(modules|publishing|platforms|storage|infra)/' },
      to: { path: '^src/http/app\\.ts$' },
    },
    {
      name: 'no-test-code-in-src',
      severity: 'error',
      from: { path: '^(src|sim|web/src)/', pathNot: '\\.test\\.tsx?$' },
      to: { path: '^test/' },
    },
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
