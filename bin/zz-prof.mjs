import { register } from 'tsx/esm/api';
register();
const t = performance.now();
await Promise.all([import('../src/http/app.ts'), import('../src/publishing/worker.ts'), import('../src/clips/worker.ts'), import('../src/services.ts'), import('../src/sandbox/index.ts')]);
console.log('loaded in', (performance.now() - t).toFixed(0), 'ms');
