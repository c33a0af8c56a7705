#!/usr/bin/env node
// Herald's command line. Runs the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
