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

describe('sign-up and Stripe settings', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems.join('\n');
    }
    throw new Error('expected a ConfigError');
  };

  it('sign-up is closed and Stripe off by default', () => {
    expect(loadConfig({})).toMatchObject({ signupOpen: false, stripe: null });
    expect(loadConfig({ HERALD_SIGNUP: 'open' }).signupOpen).toBe(true);
    expect(problems({ HERALD_SIGNUP: 'maybe' })).toMatch(/HERALD_SIGNUP/);
  });

  it('parses the price map into plans with their billing period and add-ons', () => {
    const c = loadConfig({
      HERALD_STRIPE_SECRET_KEY: 'sk_test_1', HERALD_STRIPE_WEBHOOK_SECRET: 'whsec_1', HERALD_STRIPE_API_URL: 'http://127.0.0.1:12111/',
      HERALD_STRIPE_PRICES: 'price_A=basic:monthly, price_B=enterprise:yearly,price_C=addon:clips',
    });
    expect(c.stripe).toEqual({
      secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiUrl: 'http://127.0.0.1:12111',
      prices: { price_A: { kind: 'plan', plan: 'basic', billingPeriod: 'monthly' }, price_B: { kind: 'plan', plan: 'enterprise', billingPeriod: 'yearly' }, price_C: { kind: 'addon', addon: 'clips' } },
    });
  });

  it('names the variable of a half configuration or a bad price entry', () => {
    expect(problems({ HERALD_STRIPE_SECRET_KEY: 'sk_test_1' })).toMatch(/HERALD_STRIPE_WEBHOOK_SECRET: is required/);
    expect(problems({ HERALD_STRIPE_SECRET_KEY: 'sk_test_1', HERALD_STRIPE_WEBHOOK_SECRET: 'whsec_1' })).toMatch(/HERALD_STRIPE_PRICES: is required/);
    const bad = problems({ HERALD_STRIPE_SECRET_KEY: 'sk_test_1', HERALD_STRIPE_WEBHOOK_SECRET: 'whsec_1', HERALD_STRIPE_PRICES: 'price_A=gold:monthly,price_B=free:monthly,price_C=addon:bogus,price_D=basic:weekly' });
    for (const entry of ['price_A=gold:monthly', 'price_B=free:monthly', 'price_C=addon:bogus', 'price_D=basic:weekly']) expect(bad).toContain(`"${entry}"`);
    expect(problems({ HERALD_STRIPE_SECRET_KEY: 'pk_test_1', HERALD_STRIPE_WEBHOOK_SECRET: 'whsec_1', HERALD_STRIPE_PRICES: 'p=basic:monthly' })).toMatch(/HERALD_STRIPE_SECRET_KEY/);
  });
});

describe('database timeouts and the upload disk floor', () => {
  it('default to a bounded wait everywhere, and each is a setting', () => {
    expect(loadConfig({})).toMatchObject({ db: { connectTimeoutMs: 5_000, statementTimeoutMs: 5_000, healthTimeoutMs: 1_500 }, mediaMinFreeBytes: 100 * 1024 * 1024 });
    expect(loadConfig({ HERALD_DB_CONNECT_TIMEOUT_MS: '2000', HERALD_DB_STATEMENT_TIMEOUT_MS: '0', HERALD_DB_HEALTH_TIMEOUT_MS: '900', HERALD_MEDIA_MIN_FREE_MB: '0' }))
      .toMatchObject({ db: { connectTimeoutMs: 2_000, statementTimeoutMs: 0, healthTimeoutMs: 900 }, mediaMinFreeBytes: 0 });
    expect(() => loadConfig({ HERALD_DB_CONNECT_TIMEOUT_MS: '0' })).toThrow(/HERALD_DB_CONNECT_TIMEOUT_MS/);
    expect(() => loadConfig({ HERALD_DB_HEALTH_TIMEOUT_MS: 'soon' })).toThrow(/HERALD_DB_HEALTH_TIMEOUT_MS/);
  });
});

describe('a pooler in front of the database (decision 0068)', () => {
  it('is off by default; HERALD_DB_POOLER=transaction and a direct URL are settings that need DATABASE_URL', () => {
    expect(loadConfig({})).toMatchObject({ dbPooler: 'none', databaseDirectUrl: undefined });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@pooler:6432/herald', HERALD_DB_POOLER: 'transaction', HERALD_DATABASE_DIRECT_URL: 'postgresql://u:p@db:5432/herald' }))
      .toMatchObject({ databaseUrl: 'postgres://u:p@pooler:6432/herald', dbPooler: 'transaction', databaseDirectUrl: 'postgresql://u:p@db:5432/herald' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@pooler:6432/herald', HERALD_DB_POOLER: 'transaction-prepared' }).dbPooler).toBe('transaction-prepared');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@pooler:6432/herald', HERALD_DB_POOLER: 'session' })).toThrow(/HERALD_DB_POOLER/);
    expect(() => loadConfig({ HERALD_DB_POOLER: 'transaction' })).toThrow(/HERALD_DB_POOLER: needs DATABASE_URL/);
    expect(() => loadConfig({ HERALD_DATABASE_DIRECT_URL: 'postgres://u:p@db/herald' })).toThrow(/HERALD_DATABASE_DIRECT_URL: needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u:p@pooler/herald', HERALD_DATABASE_DIRECT_URL: 'mysql://db' })).toThrow(/HERALD_DATABASE_DIRECT_URL/);
  });
});
