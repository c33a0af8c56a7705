/**
 * The adapter registry: which platforms Herald can publish to in this process, and
 * the credential-based connect flows. Platforms without an adapter yet (or without app
 * credentials configured) answer a clear error naming what is missing.
 */
import type { Config } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { BlueskyAdapter, connectBluesky } from './bluesky/adapter.ts';
import type { ConnectedAccount, PlatformAdapter, PlatformId } from './types.ts';

export interface AdapterRegistry {
  get(platform: PlatformId): PlatformAdapter | undefined;
  /** @throws AppError BAD_REQUEST naming the platform when it has no adapter here. */
  require(platform: PlatformId): PlatformAdapter;
  /** Bluesky app-password login against the configured service (entryway). */
  connectBluesky(identifier: string, appPassword: string): Promise<ConnectedAccount>;
}

export function createAdapterRegistry(config: Pick<Config, 'blueskyServiceUrl'>, extra: Partial<Record<PlatformId, PlatformAdapter>> = {}): AdapterRegistry {
  const adapters = new Map<PlatformId, PlatformAdapter>();
  adapters.set('bluesky', new BlueskyAdapter() as unknown as PlatformAdapter);
  for (const [k, v] of Object.entries(extra)) adapters.set(k as PlatformId, v!);
  return {
    get: (p) => adapters.get(p),
    require(p) {
      const a = adapters.get(p);
      if (!a) throw new AppError('BAD_REQUEST', `Publishing to ${p} is not available on this server yet`, { platform: p });
      return a;
    },
    connectBluesky: (identifier, appPassword) => connectBluesky(config.blueskyServiceUrl, identifier, appPassword),
  };
}
