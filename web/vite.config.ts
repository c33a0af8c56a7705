/**
 * The web app: four pages built as a multi-page app, each with its own entry so that the
 * docs page loads no dashboard code. Herald serves web/dist itself (src/http/web.ts).
 * `npm run dev:web` runs Vite's dev server with the API proxied to a running Herald.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));
const api = process.env.HERALD_URL ?? 'http://127.0.0.1:3000';

/** Dev server only: the clean URLs Herald serves (/docs, /pricing, /dashboard/...) map to the HTML entries. */
function cleanUrls(): Plugin {
  return {
    name: 'herald-clean-urls',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        const p = url.split('?')[0];
        if (p === '/docs' || p === '/docs/') req.url = '/docs.html';
        else if (p === '/pricing' || p === '/pricing/') req.url = '/pricing.html';
        else if (p === '/dashboard' || p.startsWith('/dashboard/')) req.url = '/dashboard.html';
        next();
      });
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), cleanUrls()],
  server: {
    fs: { allow: [path.resolve(here, '..')] },
    proxy: Object.fromEntries(['/v1', '/auth', '/docs-ai', '/media'].map((p) => [p, { target: api, changeOrigin: false }])),
  },
  build: {
    outDir: path.join(here, 'dist'),
    // Old hashed chunks stay for a day (web/build.mjs prunes them): open tabs keep loading their lazy screens after a rebuild.
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: {
        index: path.join(here, 'index.html'),
        docs: path.join(here, 'docs.html'),
        pricing: path.join(here, 'pricing.html'),
        dashboard: path.join(here, 'dashboard.html'),
      },
      output: {
        // React in one shared, long-cached chunk for every page.
        codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] },
      },
    },
  },
});
