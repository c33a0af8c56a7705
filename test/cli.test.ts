/**
 * The real `herald` command line as a child process: `user create` and `key create`
 * against a test database (DATABASE_URL), their keys working against the app built on
 * the same database, clear messages on bad input, and once the embedded path, where the
 * CLI starts PostgreSQL in the data directory itself and stops it again.
 */
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../src/shared/plans.ts';
import { createTestApp, createTestDatabase, type TestContext } from './support/app.ts';
import { freePort } from './support/net.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'herald.js');

interface RunResult { code: number | null; stdout: string; stderr: string }

/** Runs `node bin/herald.js ...args` with only the given environment (plus PATH/HOME). */
function herald(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? os.tmpdir(), TMPDIR: os.tmpdir(), HERALD_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`herald ${args.join(' ')} timed out; stderr: ${stderr}`)); }, timeoutMs);
    child.on('error', (err) => { clearTimeout(timer); reject(err); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** The single JSON line a successful user/key command prints. */
function jsonLine(r: RunResult): { userId: string; apiKey: string } {
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.split('\n').filter(Boolean);
  expect(lines, r.stdout).toHaveLength(1);
  const out = JSON.parse(lines[0]);
  expect(out).toEqual({ userId: expect.stringMatching(/^[0-9a-f]{24}$/), apiKey: expect.stringMatching(/^sk_[0-9a-f]{64}$/) });
  return out;
}

/** Pids of live processes whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (cmd.includes(needle)) pids.push(Number(entry));
    } catch { /* exited meanwhile */ }
  }
  return pids;
}

describe('herald CLI with DATABASE_URL', () => {
  let env: Record<string, string>;
  let dataDir: string;
  let ctx: TestContext;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-'));
    env = { DATABASE_URL: await createTestDatabase(), HERALD_DATA_DIR: dataDir, HERALD_SECRET_KEY: randomBytes(32).toString('hex') };
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (key: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('user create prints {userId, apiKey}; the key works against the app on the same database', async () => {
    const created = jsonLine(await herald(['user', 'create', '--email', 'a@b.test', '--name', 'A', '--plan', 'basic'], env));
    ctx = await createTestApp({ databaseUrl: env.DATABASE_URL });

    const me = await api(created.apiKey, `/v1/users/${created.userId}`);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user).toMatchObject({ _id: created.userId, email: 'a@b.test', name: 'A', isRoot: true, role: 'owner' });
    const usage = await api(created.apiKey, '/v1/usage-stats');
    expect(usage.json()).toMatchObject({ planName: PLANS.basic.name, limits: { profiles: PLANS.basic.profiles } });
    const profile = await ctx.app.inject({ method: 'POST', url: '/v1/profiles', headers: { authorization: `Bearer ${created.apiKey}` }, payload: { name: 'Main' } });
    expect(profile.statusCode).toBe(201);

    // key create: another working key of the same user, with a name and an expiry.
    const second = jsonLine(await herald(['key', 'create', '--user', created.userId, '--name', 'Deploy', '--expires-in', '30'], env));
    expect(second.userId).toBe(created.userId);
    expect(second.apiKey).not.toBe(created.apiKey);
    const keys = await api(second.apiKey, '/v1/api-keys');
    expect(keys.statusCode).toBe(200);
    const deploy = keys.json().apiKeys.find((k: { name: string }) => k.name === 'Deploy');
    expect(deploy).toBeTruthy();
    expect(new Date(deploy.expiresAt).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(keys.json().apiKeys).toHaveLength(2);
    // Upper-case ids are accepted too.
    jsonLine(await herald(['key', 'create', '--user', created.userId.toUpperCase()], env));

    // user addon: grants and removes a paid add-on on the tenant.
    const granted = await herald(['user', 'addon', '--user', created.userId, '--addon', 'analytics'], env);
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toEqual({ userId: created.userId, addons: ['analytics'] });
    expect(await ctx.services.users.addons(created.userId)).toEqual(['analytics']);
    const removed = await herald(['user', 'addon', '--user', created.userId, '--addon', 'analytics', '--off'], env);
    expect(JSON.parse(removed.stdout)).toEqual({ userId: created.userId, addons: [] });

    // user plan: plan, add-ons and billing period by the owner's email; the API enforces the new plan at once.
    const planned = await herald(['user', 'plan', '--email', 'a@b.test', '--plan', 'enterprise', '--addons', 'analytics,clips', '--billing', 'annual'], env);
    expect(planned.code, planned.stderr).toBe(0);
    expect(JSON.parse(planned.stdout)).toEqual({ userId: created.userId, plan: 'enterprise', billingPeriod: 'yearly', addons: ['analytics', 'clips'] });
    const planUsage = (await api(second.apiKey, '/v1/usage-stats')).json();
    expect(planUsage).toMatchObject({ planName: 'Enterprise', billingPeriod: 'yearly', limits: { uploads: -1, profiles: 250 } });
    const unlimited = await herald(['user', 'plan', '--email', 'A@B.test', '--plan', 'unlimited', '--addons', ''], env);
    expect(JSON.parse(unlimited.stdout)).toEqual({ userId: created.userId, plan: 'unlimited', billingPeriod: 'yearly', addons: [] });
    expect(await ctx.services.users.owner(created.userId)).toMatchObject({ plan: 'unlimited', addons: [] });

    // Team members get no API keys, from the CLI either.
    const memberId = '0123456789abcdef0123abcd';
    await ctx.db.query("INSERT INTO users (id, tenant_id, email, role, is_root) VALUES ($1, $2, 'member@team.test', 'member', false)", [memberId, created.userId]);
    const memberKey = await herald(['key', 'create', '--user', memberId], env);
    expect(memberKey.code).not.toBe(0);
    expect(memberKey.stderr).toMatch(/is a team member; API keys belong to the account owner/);
    expect(memberKey.stdout).toBe('');
  });

  it('refuses bad input with a non-zero exit, a clear message on stderr and nothing on stdout', async () => {
    // Run together: each process costs about 1.5 s of CPU to start.
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [['user', 'create', '--name', 'No Email'], /--email is required/],
      [['user', 'create', '--email', 'c@b.test', '--plan', 'gold'], /--plan must be one of free, basic, professional, advanced, enterprise, unlimited/],
      [['user', 'create', '--email', 'not-an-email'], /email.*valid email/i],
      [['user', 'create', '--email', 'e@b.test', '--bogus'], /Unknown option '--bogus'/],
      [['key', 'create', '--user', 'nothex'], /--user must be a user id \(24 hex characters\)/],
      [['key', 'create', '--user', '0123456789abcdef01234567', '--expires-in', '0'], /--expires-in must be a whole number of days/],
      [['key', 'create', '--user', '0123456789abcdef01234567'], /no user with id 0123456789abcdef01234567/],
      [['user', 'create', '--email', 'f@b.test'], /HERALD_SECRET_KEY/, { HERALD_SECRET_KEY: 'short' }],
      [['user', 'addon', '--user', '0123456789abcdef01234567', '--addon', 'gold'], /--addon must be one of analytics, clips/],
      [['user', 'plan', '--email', 'a@b.test', '--plan', 'gold'], /--plan must be one of free, basic/],
      [['user', 'plan', '--email', 'a@b.test', '--plan', 'basic', '--billing', 'weekly'], /--billing must be monthly or annual/],
      [['user', 'plan', '--email', 'a@b.test', '--plan', 'basic', '--addons', 'analytics,gold'], /--addons must list add-ons among analytics, clips \(got "gold"\)/],
      [['user', 'plan', '--email', 'nobody@b.test', '--plan', 'basic'], /no user with the email nobody@b.test/],
    ];
    const results = await Promise.all(cases.map(([args, , extra]) => herald(args, { ...env, ...extra })));
    results.forEach((r, i) => {
      const [args, message] = cases[i];
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).not.toBe(0);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr, args.join(' ')).not.toMatch(/\n\s+at /); // a message, not a stack trace
      expect(r.stdout, args.join(' ')).toBe('');
    });
    const { rows } = await ctx.db.query(`SELECT email FROM users WHERE email LIKE '%@b.test' AND email <> 'a@b.test'`);
    expect(rows).toEqual([]);
  });

  it('refuses a duplicate email with a message naming the email field', async () => {
    jsonLine(await herald(['user', 'create', '--email', 'dup@b.test'], env));
    const again = await herald(['user', 'create', '--email', 'dup@b.test', '--plan', 'advanced'], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/email/);
    expect(again.stderr).toMatch(/already used/);
    expect(again.stdout).toBe('');
  });
});

describe('herald CLI with embedded PostgreSQL', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-embedded-'));
    fs.chmodSync(dir, 0o755); // PostgreSQL runs as the postgres user when the tests run as root
  });
  afterAll(() => {
    for (const pid of processesMentioning(dir)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('user create starts PostgreSQL in the data dir, stops it afterwards, and the data persists', async () => {
    const env = { HERALD_DATA_DIR: dir, HERALD_EMBEDDED_PG_PORT: String(await freePort()) };
    const pidFile = path.join(dir, 'pg', 'postmaster.pid');

    const first = jsonLine(await herald(['user', 'create', '--email', 'embedded@b.test', '--plan', 'free'], env, 100_000));
    expect(fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(processesMentioning(path.join(dir, 'pg'))).toEqual([]);
    // The generated secrets stay private.
    expect(fs.statSync(path.join(dir, 'secrets.json')).mode & 0o077).toBe(0);

    // A second run on the same directory sees the first one's user.
    const dup = await herald(['user', 'create', '--email', 'embedded@b.test'], env, 60_000);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/email.*already used/);
    expect(fs.existsSync(pidFile)).toBe(false);

    const key = jsonLine(await herald(['key', 'create', '--user', first.userId], env, 60_000));
    expect(key.userId).toBe(first.userId);
    expect(fs.existsSync(pidFile)).toBe(false);
    expect(processesMentioning(path.join(dir, 'pg'))).toEqual([]);
  }, 120_000);
});
