/**
 * The choice after OAuth, for any platform whose connect shape has a {@link ChooseStep} (a Facebook
 * Page, a LinkedIn author; docs/decisions/0016 and 0051-platform-connect-contract.md). The OAuth
 * flow sealed the step's payload under a tempToken (./selection.ts); this lists the choices and
 * stores the account for the chosen value through `accounts.upsertConnected`. The Late-compatible
 * routes (`/v1/connect/facebook/select-page`, `/v1/connect/linkedin/select-organization`) and the
 * platform invite page translate their bodies into a value and call it.
 *
 * A platform connected with a bot token (connect shape `bot-token`, Telegram) starts here too:
 * {@link ChooseService.botToken} checks the token and either stores the named destination at once or
 * seals the step's payload under a tempToken; the same list and choose calls finish it.
 *
 * Errors: 400 (field tempToken) for an unknown, used, expired or foreign tempToken, 400 (field
 * profileId) for another profile, 404 for a profile the caller cannot see; what the step throws
 * (403 for a value the user may not choose); a platform refusing the stored authorization answers
 * 400 "<Label> refused the authorization (...); connect <Label> again", one it cannot reach 502.
 */
import { AppError, fieldError } from '../../core/errors.ts';
import { PLATFORM_LABELS, type OAuthPlatform } from '../../shared/platforms.ts';
import type { AdapterRegistry } from '../../platforms/registry.ts';
import type { BotTokenShape, ChooseStep, Choice, PlatformApp, PlatformId } from '../../platforms/types.ts';
import type { AuthContext } from '../auth/context.ts';
import { toAccountView, type AccountRow, type AccountsService, type StoredHook } from '../accounts/service.ts';
import type { AccountsRepository } from '../accounts/repository.ts';
import { apiErrorFrom, loginErrorFrom, type AuthorizationWording } from '../accounts/platform-errors.ts';
import { redirectWith } from './redirect.ts';
import { SELECTION_TTL_MS, type SelectionStore } from './selection.ts';

/** What {@link ChooseService.choose} takes besides the platform. */
export interface ChooseInput {
  profileId: string;
  tempToken: string;
  /**
   * The chosen value, or a function answering it when translating the caller's body can fail (it
   * runs after the tempToken is checked, so a bad token is reported first).
   */
  value: string | (() => string);
  /** The caller's redirect URL; by default the one the flow was started with. */
  redirectUrl?: string;
  /** What the caller's body says beyond the value (see ChooseStep.toAccount). */
  extra?: Record<string, unknown>;
}

export function createChooseService(deps: {
  selections: SelectionStore; accounts: AccountsService; repository: AccountsRepository; adapters: AdapterRegistry;
  /** Answers the profile, or 404 for one the caller cannot see (the bot-token call checks it before asking the platform). */
  profiles: { get(auth: AuthContext, profileId: string): Promise<unknown> };
}) {
  const { selections, adapters } = deps;

  /** The platform's choose step (after OAuth, or after a bot token). @throws AppError BAD_REQUEST when the platform has none. */
  function stepOf(platform: PlatformId): ChooseStep {
    const shape = adapters.connectShape(platform);
    if (shape.kind === 'bot-token') return shape.choose;
    if (shape.kind !== 'oauth' || !shape.choose) throw new AppError('BAD_REQUEST', `${PLATFORM_LABELS[platform]} has no choice to make when connecting`, { platform });
    return shape.choose;
  }

  /** The app the step calls: the bot-token shape's API, else the configured OAuth app. */
  function appOf(platform: PlatformId): PlatformApp {
    const shape = adapters.connectShape(platform);
    return shape.kind === 'bot-token' ? shape.app : adapters.oauth(platform as OAuthPlatform).app;
  }

  /** The bot-token shape of `platform`. @throws AppError BAD_REQUEST when the platform connects otherwise. */
  function botTokenShape(platform: PlatformId): BotTokenShape {
    const shape = adapters.connectShape(platform);
    if (shape.kind !== 'bot-token') throw new AppError('BAD_REQUEST', `${PLATFORM_LABELS[platform]} does not connect with a bot token`, { platform });
    return shape;
  }

  /** Runs a step call, answering a platform failure as the selection calls always have. */
  async function guarded<T>(platform: PlatformId, call: () => Promise<T>): Promise<T> {
    const label = PLATFORM_LABELS[platform];
    const wording: AuthorizationWording = { platform, refused: (msg) => `${label} refused the authorization (${msg}); connect ${label} again` };
    try {
      return await call();
    } catch (err) {
      throw apiErrorFrom(err, label, wording);
    }
  }

  /**
   * The choices of the tempToken's selection (read again from the platform where they can
   * change); the tempToken stays valid. `opts.inviteId`: the selection must come from a flow
   * started from that platform invite (400, field tempToken, otherwise; checked before the platform is asked).
   */
  async function list(auth: AuthContext, platform: PlatformId, profileId: string, tempToken: string, opts: { inviteId?: string } = {}): Promise<{ choices: Choice[]; note?: string }> {
    const step = stepOf(platform);
    const sel = await selections.peek(auth, platform, profileId, tempToken);
    if (opts.inviteId !== undefined && sel.inviteId !== opts.inviteId) throw fieldError('tempToken', 'was not issued for this invite');
    const app = appOf(platform);
    const note = step.note?.(sel.payload);
    return { choices: await guarded(platform, () => step.choices(app, sel.payload)), ...(note ? { note } : {}) };
  }

  return {
    stepOf,
    list,

    /**
     * `POST /v1/connect/{platform}/bot-token`: checks the token (the shape's `login`; a refused
     * token is 400 naming `botToken`), then either stores the destination the body names in the
     * shape's `directField` at once (`{ message, account }`, as the choose call answers), or seals
     * the step's payload under a new tempToken and answers `{ message, tempToken, [answerKey],
     * ...the step's answer fields }` (the choice is finished with the select calls). `within` runs
     * in the transaction storing the account (a platform invite's use).
     * @throws 404 for a profile the caller cannot see (before the platform is asked).
     */
    async botToken(auth: AuthContext, platform: PlatformId, body: { profileId: string; botToken: string; redirect_url?: string } & Record<string, unknown>,
      opts: { inviteId?: string; within?: StoredHook } = {}) {
      const shape = botTokenShape(platform);
      const label = PLATFORM_LABELS[platform];
      const profileId = body.profileId.toLowerCase();
      await deps.profiles.get(auth, profileId);
      let login;
      try {
        login = await shape.login(body.botToken);
      } catch (err) {
        throw loginErrorFrom(err, { platform, label, refusedField: shape.refusedField, field: 'botToken' });
      }
      const step = shape.choose;
      const direct = body[shape.directField];
      if (typeof direct === 'string' && direct.trim()) {
        const value = step.wire.value({ ...body, [shape.directField]: direct });
        const chosen = await guarded(platform, async () => {
          const begun = await step.begin(shape.app, login.tokens, login.identity);
          if (!begun) throw new AppError('PLATFORM_ERROR', `${label} gave nothing to choose from`, { platform });
          return step.toAccount(shape.app, begun.payload, value, {});
        });
        const row = await deps.accounts.upsertConnected(auth, profileId, platform, chosen.account, opts.within);
        const view = toAccountView(row);
        const redirect = body.redirect_url ? redirectWith(body.redirect_url, { connected: platform, profileId, username: view.username, accountId: view._id }) : null;
        return { message: chosen.message, ...(redirect ? { redirect_url: redirect } : {}), account: { ...view, accountId: view._id } };
      }
      const begun = await guarded(platform, () => step.begin(shape.app, login.tokens, login.identity));
      if (!begun) throw new AppError('PLATFORM_ERROR', `${label} gave nothing to choose from`, { platform });
      const tempToken = await selections.create({ tenantId: auth.tenantId, userId: auth.userId, profileId }, platform, begun.payload, body.redirect_url ?? null, opts.inviteId ?? null);
      // When the tempToken (and a code it carries) expires, as Late's connect code answers it (approximately: the store sets the exact time).
      const expiresAt = new Date(Date.now() + SELECTION_TTL_MS).toISOString();
      return { message: step.answerMessage, tempToken, expiresAt, expiresIn: SELECTION_TTL_MS / 1000, [step.answerKey]: begun.list, ...(begun.answer ?? {}) };
    },

    /**
     * The Late-compatible listing: `{ [answerKey]: the listed choices }` (`{ pages }`, `{ organizations }`).
     */
    async listed(auth: AuthContext, platform: PlatformId, profileId: string, tempToken: string): Promise<Record<string, unknown[]>> {
      const { choices } = await list(auth, platform, profileId, tempToken);
      return { [stepOf(platform).answerKey]: choices.filter((c) => c.listed !== undefined).map((c) => c.listed) };
    },

    /**
     * Uses up the tempToken and stores the account for the chosen value. Answers `{ message,
     * redirect_url?, account }` (the account view with `accountId`); redirect_url is the caller's
     * (or the flow's) URL with connected, profileId, username and accountId. `within` runs in the
     * transaction storing the account (a platform invite's use).
     */
    async choose(auth: AuthContext, platform: PlatformId, input: ChooseInput, within?: StoredHook) {
      const step = stepOf(platform);
      const sel = await selections.peek(auth, platform, input.profileId, input.tempToken);
      const value = typeof input.value === 'function' ? input.value() : input.value;
      const app = appOf(platform);
      const chosen = await guarded(platform, () => step.toAccount(app, sel.payload, value, input.extra));
      await selections.consume(sel.token);
      let row: AccountRow = await deps.accounts.upsertConnected(auth, sel.profileId, platform, chosen.account, within);
      if (chosen.dropSettings?.length) row = await deps.repository.replaceSettings(row.id, chosen.dropSettings, {}, { touch: false });
      const view = toAccountView(row);
      const target = input.redirectUrl ?? sel.redirectUrl;
      const redirect = target ? redirectWith(target, { connected: platform, profileId: sel.profileId, username: view.username, accountId: view._id }) : null;
      return { message: chosen.message, ...(redirect ? { redirect_url: redirect } : {}), account: { ...view, accountId: view._id } };
    },
  };
}

export type ChooseService = ReturnType<typeof createChooseService>;
