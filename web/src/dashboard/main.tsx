import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { mount } from '../shared/mount.tsx';
import { App } from './App.tsx';
import './dashboard.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: (n, err) => n < 1 && !(err as { status?: number }).status, refetchOnWindowFocus: true, staleTime: 5_000 } },
});

mount(<QueryClientProvider client={queryClient}><App /></QueryClientProvider>);
