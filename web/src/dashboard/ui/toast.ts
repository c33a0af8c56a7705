/**
 * The dashboard's one toast system: `toast({ title, body, tone })` shows a short message in the
 * corner (React Aria Components' toast region: a landmark that F6 reaches, each toast dismissable,
 * see https://react-spectrum.adobe.com/react-aria/Toast.html). The region and its library load on
 * demand (./toast-region.tsx), so this module adds nothing to the dashboard's first load.
 */
import type { ReactNode } from 'react';

/** What a toast says: a title, optional details, and its tone (a success, an error or a note). */
export interface ToastMessage { title: string; body?: ReactNode; tone?: 'ok' | 'error' | 'info' }

/**
 * Shows a toast. Successes and notes close by themselves after 6 s (enough to read them, and
 * a hovered or focused toast stays); errors stay until closed.
 */
export function toast(message: ToastMessage): void {
  void import('./toast-region.tsx').then((m) => m.toastQueue.add(message, message.tone === 'error' ? {} : { timeout: 6_000 }));
}
