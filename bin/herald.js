#!/usr/bin/env -S node --max-semi-space-size=64
// Herald's command line. Runs the TypeScript sources through tsx (no build step). The young
// generation is 64 MiB per semi-space (V8 default 16): see docs/decisions/0041-young-generation.md.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
