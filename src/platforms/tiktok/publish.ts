/**
 * The status side of TikTok's `commit` and `verify`: `status/fetch`
 * (https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status), polling
 * until a final status, and the publish result built from it.
 */
import { AdapterError, type AccountContext, type PublishResult } from '../types.ts';
import { tiktokJson } from './api.ts';
import type { StatusAnswer, TikTokCall, TikTokOptions, TikTokPrepared } from './model.ts';

/** Reads the publish's status (`POST /v2/post/publish/status/fetch/`). */
export function fetchStatus(call: TikTokCall, publishId: string): Promise<StatusAnswer> {
  return call((token, app) => tiktokJson<StatusAnswer>(app.apiBaseUrl, '/v2/post/publish/status/fetch/', { method: 'POST', token, json: { publish_id: publishId } }));
}

/** The publish result from a final status (the post id once TikTok has made it public, else the publish_id). */
export function buildResult(account: AccountContext, publishId: string, s: StatusAnswer, p: TikTokPrepared): PublishResult {
  const postId = s.publicaly_available_post_id?.[0];
  return {
    platformPostId: postId !== undefined ? String(postId) : publishId,
    platformPostUrl: postId !== undefined ? `https://www.tiktok.com/@${account.username}/video/${postId}` : `https://www.tiktok.com/@${account.username}`,
    extra: { publishId, status: s.status, privacyLevel: p.privacyLevel, ...(postId === undefined ? { postIdPending: true } : {}) },
  };
}

/**
 * Polls until a final status. Throttling and transient errors while polling are waited out.
 * @throws AdapterError rejected (FAILED), transient (timeout or persistent errors).
 */
export async function waitFinal(call: TikTokCall, account: AccountContext, publishId: string, p: TikTokPrepared, opts: Pick<Required<TikTokOptions>, 'pollIntervalMs' | 'pollMaxIntervalMs' | 'pollTimeoutMs' | 'postIdPolls'>, timeoutMs = opts.pollTimeoutMs): Promise<PublishResult> {
  const deadline = Date.now() + timeoutMs;
  let interval = opts.pollIntervalMs;
  let extra = 0;
  let lastErr: AdapterError | undefined;
  for (;;) {
    let s: StatusAnswer | undefined;
    try {
      s = await fetchStatus(call, publishId);
    } catch (err) {
      if (!(err instanceof AdapterError) || (err.kind !== 'transient' && err.kind !== 'rate_limited')) throw err;
      lastErr = err;
    }
    if (s?.status === 'FAILED') throw new AdapterError('rejected', `TikTok could not publish the ${p.kind}: ${s.fail_reason ?? 'FAILED'}`, { platformCode: s.fail_reason });
    if (s?.status === 'SEND_TO_USER_INBOX') return buildResult(account, publishId, s, p);
    if (s?.status === 'PUBLISH_COMPLETE') {
      if (s.publicaly_available_post_id?.length || p.privacyLevel === 'SELF_ONLY' || extra >= opts.postIdPolls || Date.now() > deadline) return buildResult(account, publishId, s, p);
      extra++;
    }
    if (Date.now() > deadline) throw new AdapterError('transient', `TikTok is still processing the ${p.kind}${lastErr ? ` (${lastErr.message})` : ''}`);
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(opts.pollMaxIntervalMs, interval * 2);
  }
}
