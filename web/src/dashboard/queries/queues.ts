/**
 * Queries of the queues resource (GET /v1/queue/slots?all=true, decision 0062: several named
 * queues per profile). Pages read a profile's queues through this hook, never through another
 * page; mutations invalidate the `['queues', profileId]` key.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type QueueView } from '../api.ts';

/** A queue as the API shows it: `_id`, `name`, `timezone` (IANA), `slots`, `active`, `isDefault`, ... */
export type Queue = QueueView;

/**
 * The queues of profile `profileId` (the default first), under the key `['queues', profileId]`;
 * `data` is `Queue[]` (empty for a profile without a queue), undefined while loading. Disabled
 * without a profile.
 */
export function useQueues(profileId: string | null | undefined) {
  return useQuery({
    queryKey: ['queues', profileId],
    enabled: !!profileId,
    queryFn: async (): Promise<Queue[]> => {
      const r = await unwrap(api.GET('/v1/queue/slots', { params: { query: { profileId: profileId!, all: 'true' } } }));
      return 'queues' in r ? r.queues : [];
    },
  });
}
