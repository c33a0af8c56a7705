import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, host: '127.0.0.1', dataDir: path.resolve('./data'), blueskyServiceUrl: 'https://bsky.social', rateLimit: true });
    expect(c.databaseUrl).toBeUndefined();
  });
  it('coerces and validates, naming each bad variable', () => {
    expect(loadConfig({ PORT: '8080', HERALD_RATE_LIMIT: 'off' })).toMatchObject({ port: 8080, rateLimit: false });
    try {
      loadConfig({ PORT: 'eighty', HERALD_SECRET_KEY: 'short', DATABASE_URL: 'mysql://x' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).problems.join('\n');
      expect(text).toMatch(/PORT/);
      expect(text).toMatch(/HERALD_SECRET_KEY/);
      expect(text).toMatch(/DATABASE_URL/);
    }
  });
});
