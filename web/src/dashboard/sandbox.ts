/** Whether Herald runs in sandbox mode (GET /health says so): platforms are local simulators. */
import { useQuery } from '@tanstack/react-query';

/** True when GET /health (key `['health']`, read once) answers `sandbox: true`; false while loading or otherwise. */
export function useSandbox(): boolean {
  const health = useQuery({
    queryKey: ['health'], staleTime: Infinity,
    queryFn: () => fetch('/health').then((r) => r.json() as Promise<{ sandbox?: boolean }>),
  });
  return health.data?.sandbox === true;
}
