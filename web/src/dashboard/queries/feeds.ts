/**
 * Queries of followed feeds (RSS to queue, docs/decisions/0065-rss-to-queue.md): a profile's feeds
 * (GET /v1/feeds?profileId=) under `['feeds', profileId]`, and one feed with its latest items
 * (GET /v1/feeds/{feedId}) under `['feed', feedId]`. Mutations invalidate both.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Paths } from '../api.ts';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
export type Feed = Json<Paths['/v1/feeds']['get']['responses'][200]>['feeds'][number];
export type FeedItem = Json<Paths['/v1/feeds/{feedId}']['get']['responses'][200]>['items'][number];
export type CreateFeedBody = NonNullable<Paths['/v1/feeds']['post']['requestBody']>['content']['application/json'];

/** The profile's feeds, oldest first; refreshed every 30 s while shown (a check may have run). */
export function useFeeds(profileId: string) {
  return useQuery({
    queryKey: ['feeds', profileId], refetchInterval: 30_000,
    queryFn: () => unwrap(api.GET('/v1/feeds', { params: { query: { profileId } } })).then((r) => r.feeds),
  });
}

/** One feed's latest items (newest first), only while `enabled` (its list is open). */
export function useFeedItems(feedId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['feed', feedId], enabled,
    queryFn: () => unwrap(api.GET('/v1/feeds/{feedId}', { params: { path: { feedId } } })).then((r) => r.items),
  });
}
