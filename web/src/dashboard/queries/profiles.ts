/**
 * Queries of the profiles resource (GET /v1/profiles). Pages read profiles through these hooks,
 * never through another page; mutations invalidate the `['profiles']` key.
 */
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';

/**
 * The profiles the session can see (GET /v1/profiles), under the key `['profiles']`.
 * `data` is `Profile[]` (`_id`, `name`, `description`, `color`, `isDefault`, ...), in the
 * API's order; undefined while loading.
 */
export function useProfiles() {
  return useQuery({ queryKey: ['profiles'], queryFn: () => unwrap(api.GET('/v1/profiles')).then((r) => r.profiles) });
}
