/**
 * How an MCP tool call reaches its /v1 route with the caller's identity: the tool sends the
 * route an in-process request (`app.inject`) carrying a one-time random handle in
 * {@link DELEGATED_AUTH_HEADER}; the /v1 auth hook exchanges it for the {@link AuthContext} the
 * /mcp request was authenticated with. The handle exists only while that call runs and only in
 * this process, so nothing outside can present one (docs/decisions/0047-mcp-server.md).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { AuthContext } from '../auth/context.ts';

/** The header an in-process tool call carries its handle in. */
export const DELEGATED_AUTH_HEADER = 'x-herald-delegated-auth';

/** Hands an authenticated context to the in-process requests of one tool call. */
export interface DelegatedAuth {
  /** Runs `fn` with a handle that stands for `auth` until `fn` settles. */
  run<T>(auth: AuthContext, fn: (handle: string) => Promise<T>): Promise<T>;
  /**
   * The context of the request's handle; undefined when it carries none.
   * @throws AppError UNAUTHORIZED for a handle that is not (or no longer) live.
   */
  resolve(request: FastifyRequest): AuthContext | undefined;
}

/** Creates the process's registry of live handles. */
export function createDelegatedAuth(): DelegatedAuth {
  const live = new Map<string, AuthContext>();
  return {
    async run(auth, fn) {
      const handle = randomBytes(32).toString('base64url');
      live.set(handle, auth);
      try {
        return await fn(handle);
      } finally {
        live.delete(handle);
      }
    },
    resolve(request) {
      const handle = request.headers[DELEGATED_AUTH_HEADER];
      if (handle === undefined) return undefined;
      const auth = typeof handle === 'string' ? live.get(handle) : undefined;
      if (!auth) throw new AppError('UNAUTHORIZED', 'Unauthorized', { reason: 'Invalid delegated credentials' });
      return auth;
    },
  };
}
