/**
 * The record calls behind Bluesky's `commit` and `verify`: `createRecord` with the prepared
 * rkey (recovering a record an earlier commit already created), public `getRecord` lookups,
 * and the publish result built from the records' strong refs.
 */
import { AdapterError, type AdapterContext, type PublishResult } from '../types.ts';
import { POST_COLLECTION, type BlueskyPrepared, type StrongRef } from './records.ts';
import type { BlueskySession, HttpOptions } from './session.ts';
import { XrpcRequestError, toAdapterError, xrpc } from './xrpc.ts';

function postUrl(handleOrDid: string, uri: string): string {
  const rkey = uri.slice(uri.lastIndexOf('/') + 1);
  const who = !handleOrDid || handleOrDid === 'handle.invalid' ? uri.slice(5, uri.indexOf('/', 5)) : handleOrDid;
  return `https://bsky.app/profile/${who}/post/${rkey}`;
}

export function buildResult(handle: string, refs: StrongRef[], thread: boolean): PublishResult {
  const entries = refs.map((r) => ({ platformPostId: r.uri, platformPostUrl: postUrl(handle, r.uri) }));
  return {
    platformPostId: entries[0].platformPostId,
    platformPostUrl: entries[0].platformPostUrl,
    ...(thread ? { thread: entries } : {}),
    extra: { cid: refs[0].cid, uris: refs.map((r) => r.uri), cids: refs.map((r) => r.cid) },
  };
}

export function assertPrepared(p: BlueskyPrepared): void {
  if (!p || p.version !== 1 || typeof p.did !== 'string' || !Array.isArray(p.posts) || p.posts.length === 0) {
    throw new AdapterError('rejected', 'Invalid prepared Bluesky post (unknown version or no posts); prepare again');
  }
}

/**
 * Reads one post record (`com.atproto.repo.getRecord`, public, no auth) from the PDS.
 * @returns the strong ref, or `null` when the PDS answers `RecordNotFound`.
 * @throws XrpcRequestError for any other failure.
 */
export async function getPostRecord(http: HttpOptions, pdsUrl: string, did: string, rkey: string): Promise<StrongRef | null> {
  try {
    const r = await xrpc<{ uri: string; cid: string }>(http.fetch, pdsUrl, 'com.atproto.repo.getRecord', {
      query: { repo: did, collection: POST_COLLECTION, rkey },
      timeoutMs: http.timeoutMs,
    });
    return { uri: r.uri, cid: r.cid };
  } catch (e) {
    if (e instanceof XrpcRequestError && e.error === 'RecordNotFound') return null;
    throw e;
  }
}

/**
 * Creates one record under `rkey`; when that fails, looks the rkey up and reuses a record found
 * there (an earlier commit of the same prepared post, or a create whose answer was lost).
 * @throws AdapterError the create's error when no record exists (or the lookup fails).
 */
export async function createOrRecover(http: HttpOptions, ctx: AdapterContext, session: BlueskySession, did: string, rkey: string, record: object): Promise<StrongRef> {
  try {
    const r = await session.call<{ uri: string; cid: string }>('com.atproto.repo.createRecord', {
      json: { repo: did, collection: POST_COLLECTION, rkey, record },
    });
    return { uri: r.uri, cid: r.cid };
  } catch (e) {
    const err = toAdapterError(e, http.now());
    if (err.kind !== 'transient' && err.kind !== 'rejected') throw err;
    // The rkey may already be taken by an earlier commit of this same prepared post (the PDS
    // refuses it), or the create went through but its answer was lost: look the record up.
    let existing: StrongRef | null;
    try {
      existing = await getPostRecord(http, session.creds.pdsUrl, did, rkey);
    } catch {
      throw err;
    }
    if (!existing) throw err;
    ctx.log('bluesky: record already exists, reusing it', { did, rkey, uri: existing.uri });
    return existing;
  }
}

/**
 * Deletes post records by their at:// URIs, last first (`com.atproto.repo.deleteRecord`), in the
 * session's own repository.
 * @throws AdapterError `rejected` for a URI of another repository; XrpcRequestError from the PDS.
 */
export async function deletePostRecords(session: BlueskySession, uris: string[]): Promise<void> {
  for (const uri of [...uris].reverse()) {
    const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
    if (!m || m[1] !== session.creds.did) throw new AdapterError('rejected', `Not a record of this account: ${uri}`);
    await session.call('com.atproto.repo.deleteRecord', { json: { repo: m[1], collection: m[2], rkey: m[3] } });
  }
}
