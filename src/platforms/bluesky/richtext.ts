/**
 * Text measurement and rich-text facets for Bluesky posts.
 *
 * Source: https://docs.bsky.app/docs/advanced-guides/posts (facets, link cards) and the
 * `app.bsky.feed.post` / `app.bsky.richtext.facet` lexicons: text ≤ 300 graphemes and ≤ 3000 UTF-8
 * bytes; facet offsets are UTF-8 byte offsets (start inclusive, end exclusive); links are not
 * auto-linked by the server, so every link, mention and hashtag needs a facet.
 */
import type { AppBskyRichtextFacet } from '@atproto/api';
import type { FetchFn } from './xrpc.ts';

/** Bluesky's text limits (app.bsky.feed.post lexicon), kept in src/shared/capabilities.ts. */
export { BLUESKY_MAX_GRAPHEMES as MAX_GRAPHEMES, BLUESKY_MAX_TEXT_BYTES as MAX_TEXT_BYTES } from '../../shared/capabilities.ts';

/** Graphemes and UTF-8 bytes as Bluesky counts them: the shared rule table's own measures. */
export { countGraphemes, utf8Length } from '../../shared/rules/text.ts';

export type Facet = AppBskyRichtextFacet.Main;

/**
 * Detects links, mentions, hashtags (and cashtags) with `@atproto/api`'s `RichText` and resolves
 * mention handles to DIDs with `com.atproto.identity.resolveHandle` on `pdsUrl`. Mentions whose
 * handle cannot be resolved are dropped (they stay plain text). Returns JSON-plain facets with
 * UTF-8 byte offsets, sorted by `byteStart`, or `undefined` when there are none.
 */
export async function buildFacets(text: string, pdsUrl: string, fetchFn: FetchFn, timeoutMs = 15_000): Promise<Facet[] | undefined> {
  // Loaded on first use: the package takes about a fifth of a second to load, which a start need not wait for.
  const { Agent, RichText } = await import('@atproto/api');
  const agent = new Agent((url: string, init: RequestInit) =>
    fetchFn(new URL(url, pdsUrl), { ...init, signal: init.signal ?? AbortSignal.timeout(timeoutMs) }),
  );
  const rt = new RichText({ text });
  await rt.detectFacets(agent);
  const facets = (rt.facets ?? [])
    .map((f) => ({
      ...f,
      features: f.features.filter((feat) => !(feat.$type === 'app.bsky.richtext.facet#mention' && !(feat as { did?: string }).did)),
    }))
    .filter((f) => f.features.length > 0);
  return facets.length ? (JSON.parse(JSON.stringify(facets)) as Facet[]) : undefined;
}

/** The first link facet's URI, if any. */
export function firstLink(facets: Facet[] | undefined): string | undefined {
  for (const f of facets ?? []) {
    for (const feat of f.features) {
      if (feat.$type === 'app.bsky.richtext.facet#link' && typeof (feat as { uri?: unknown }).uri === 'string') {
        return (feat as { uri: string }).uri;
      }
    }
  }
  return undefined;
}

/**
 * A link card (`app.bsky.embed.external`) without fetching the page: title = host + path of the
 * URL (e.g. `example.com/docs/start`), empty description, no thumbnail.
 */
export function externalEmbed(uri: string): { $type: 'app.bsky.embed.external'; external: { uri: string; title: string; description: string } } {
  let title = uri;
  try {
    const u = new URL(uri);
    title = u.hostname + (u.pathname === '/' ? '' : u.pathname);
  } catch {
    /* keep the raw URI */
  }
  return { $type: 'app.bsky.embed.external', external: { uri, title, description: '' } };
}
