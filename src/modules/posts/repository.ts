/**
 * The posts module's repository: posts and their targets in PostgreSQL, in four files.
 * ./views.ts: the rows, reading one post or a few, the API view. ./list-queries.ts: the
 * post list and other reads over many posts. ./storage.ts: every write of the module's
 * tables. ./status.ts: the one status rule. Callers import from here.
 */
export * from './views.ts';
export * from './list-queries.ts';
export * from './storage.ts';
export * from './status.ts';
