/**
 * The `herald` command line (`npx herald ...` from the checkout).
 *
 *   herald start | api | worker            run both roles, or one
 *   herald user create --email E [--name N] [--password P] [--plan free|basic|professional|advanced|enterprise|unlimited]
 *   herald user password --email E [--password P]
 *   herald user addon --user ID --addon analytics|clips [--off]
 *   herald user plan --email E --plan P [--addons analytics,clips] [--billing monthly|annual]
 *   herald key create --user ID [--name N] [--expires-in DAYS]
 *   herald migrate
 *
 * User and key commands print one JSON line `{"userId": ..., "apiKey": ...}`. They work
 * on the same data directory (or DATABASE_URL) whether or not Herald is running.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { AppError } from '../core/errors.ts';
import { isId } from '../core/ids.ts';
import { ADDON_IDS, isAddonId, isPlanId, PLAN_IDS, type AddonId } from '../shared/plans.ts';
import type { Role } from '../main.ts';
import { openRuntime } from '../runtime.ts';
import { createApiKeysService } from '../modules/api-keys/service.ts';
import { createUsersService } from '../modules/users/service.ts';

const USAGE = `Usage:
  herald start                      API, worker and web app in one process (default)
  herald api                        the HTTP API only
  herald worker                     the publishing worker only
  herald user create --email E [--name N] [--password P] [--plan ${PLAN_IDS.join('|')}]
  herald user password --email E [--password P]   set a dashboard password (a random one is printed when P is omitted)
  herald user addon --user ID --addon ${ADDON_IDS.join('|')} [--off]   grant (or with --off remove) a paid add-on
  herald user plan --email E --plan ${PLAN_IDS.join('|')} [--addons ${ADDON_IDS.join(',')}] [--billing monthly|annual]
                                    set the account's plan (and, when given, its add-ons, "" for none, and billing period)
  herald key create --user ID [--name N] [--expires-in DAYS]
  herald migrate                    apply database migrations and exit`;

class UsageError extends Error {}

async function withRuntime<T>(fn: (rt: Awaited<ReturnType<typeof openRuntime>>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const rt = await openRuntime(config, { applicationName: 'herald-cli', borrow: true, poolSize: 2 });
  try {
    return await fn(rt);
  } finally {
    await rt.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [cmd = 'start', sub, ...rest] = argv;
  if (cmd === 'start' || cmd === 'api' || cmd === 'worker') {
    const { runHerald } = await import('../main.ts');
    await runHerald(loadConfig(), cmd as Role);
    return -1; // keep running
  }
  if (cmd === 'migrate') {
    await withRuntime(async () => {});
    process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
    return 0;
  }
  if (cmd === 'user' && sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, name: { type: 'string' }, password: { type: 'string' }, plan: { type: 'string' } } });
    if (!values.email) throw new UsageError('--email is required');
    const plan = values.plan ?? 'free';
    if (!isPlanId(plan)) throw new UsageError(`--plan must be one of ${PLAN_IDS.join(', ')}`);
    const out = await withRuntime(async (rt) => {
      const users = createUsersService(rt.db);
      const { userId } = await users.createRootUser({ email: values.email!, name: values.name, password: values.password, plan });
      const key = await createApiKeysService(rt.db, () => new Date()).create({ tenantId: userId, userId }, { name: 'CLI key' });
      return { userId, apiKey: key.key };
    });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (cmd === 'user' && sub === 'addon') {
    const { values } = parseArgs({ args: rest, options: { user: { type: 'string' }, addon: { type: 'string' }, off: { type: 'boolean' } } });
    if (!values.user || !isId(values.user)) throw new UsageError('--user must be a user id (24 hex characters)');
    if (!isAddonId(values.addon)) throw new UsageError(`--addon must be one of ${ADDON_IDS.join(', ')}`);
    const addon = values.addon;
    const out = await withRuntime(async (rt) => {
      const { rows } = await rt.db.query<{ tenant_id: string }>('SELECT tenant_id FROM users WHERE id = $1', [values.user!.toLowerCase()]);
      if (!rows[0]) throw new UsageError(`no user with id ${values.user}`);
      const users = createUsersService(rt.db);
      await users.setAddon(rows[0].tenant_id, addon, !values.off);
      return { userId: values.user!.toLowerCase(), addons: await users.addons(rows[0].tenant_id) };
    });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (cmd === 'user' && sub === 'plan') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, plan: { type: 'string' }, addons: { type: 'string' }, billing: { type: 'string' } } });
    if (!values.email) throw new UsageError('--email is required');
    if (!isPlanId(values.plan)) throw new UsageError(`--plan must be one of ${PLAN_IDS.join(', ')}`);
    const plan = values.plan;
    const addons = values.addons === undefined ? undefined : values.addons.split(',').map((a) => a.trim()).filter(Boolean);
    const badAddon = addons?.find((a) => !isAddonId(a));
    if (badAddon !== undefined) throw new UsageError(`--addons must list add-ons among ${ADDON_IDS.join(', ')} (got "${badAddon}")`);
    const billing = values.billing === undefined ? undefined : ({ monthly: 'monthly', annual: 'yearly', yearly: 'yearly' } as const)[values.billing as 'monthly'];
    if (values.billing !== undefined && !billing) throw new UsageError('--billing must be monthly or annual');
    const out = await withRuntime(async (rt) => {
      const users = createUsersService(rt.db);
      const user = await users.byEmail(values.email!);
      if (!user) throw new UsageError(`no user with the email ${values.email}`);
      if (!user.isRoot) throw new UsageError(`${values.email} is a team member; plans belong to the account owner`);
      await users.setPlan(user.tenantId, { plan, billingPeriod: billing, addons: addons === undefined ? undefined : [...new Set(addons)] as AddonId[] });
      const owner = (await users.owner(user.tenantId))!;
      return { userId: user.tenantId, plan: owner.plan, billingPeriod: owner.billingPeriod, addons: owner.addons };
    });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (cmd === 'user' && sub === 'password') {
    const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, password: { type: 'string' } } });
    if (!values.email) throw new UsageError('--email is required');
    const password = values.password ?? (await import('node:crypto')).randomBytes(12).toString('base64url');
    const out = await withRuntime(async (rt) => {
      const { createSessionsService } = await import('../modules/sessions/service.ts');
      const { userId } = await createSessionsService(rt.db).setPassword(values.email!, password);
      return { userId, email: values.email!, ...(values.password ? {} : { password }) };
    });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (cmd === 'key' && sub === 'create') {
    const { values } = parseArgs({ args: rest, options: { user: { type: 'string' }, name: { type: 'string' }, 'expires-in': { type: 'string' } } });
    if (!values.user || !isId(values.user)) throw new UsageError('--user must be a user id (24 hex characters)');
    const expires = values['expires-in'] ? Number(values['expires-in']) : undefined;
    if (expires !== undefined && (!Number.isInteger(expires) || expires < 1)) throw new UsageError('--expires-in must be a whole number of days');
    const out = await withRuntime(async (rt) => {
      const { rows } = await rt.db.query<{ id: string; tenant_id: string; is_root: boolean }>('SELECT id, tenant_id, is_root FROM users WHERE id = $1', [values.user!.toLowerCase()]);
      if (!rows[0]) throw new UsageError(`no user with id ${values.user}`);
      // Team members use the dashboard only: invited users hold no API keys (decision 0036).
      if (!rows[0].is_root) throw new UsageError(`user ${values.user} is a team member; API keys belong to the account owner`);
      const key = await createApiKeysService(rt.db, () => new Date()).create({ tenantId: rows[0].tenant_id, userId: rows[0].id }, { name: values.name ?? 'CLI key', expiresInDays: expires });
      return { userId: rows[0].id, apiKey: key.key };
    });
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  if (cmd === 'help' || cmd === '--help' || cmd === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  throw new UsageError(`unknown command: ${[cmd, sub].filter(Boolean).join(' ')}`);
}

main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exit(code);
}, (err: unknown) => {
  // parseArgs refuses unknown options and missing values with ERR_PARSE_ARGS_* errors: usage errors too.
  if (!(err instanceof UsageError) && /^ERR_PARSE_ARGS_/.test(String((err as { code?: unknown })?.code))) err = new UsageError((err as Error).message);
  if (err instanceof UsageError) process.stderr.write(`herald: ${err.message}\n\n${USAGE}\n`);
  else if (err instanceof ConfigError) process.stderr.write(`herald: ${err.message}\n`);
  else if (err instanceof AppError) process.stderr.write(`herald: ${err.message}${err.details ? ` ${JSON.stringify(err.details)}` : ''}\n`);
  else process.stderr.write(`herald: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
