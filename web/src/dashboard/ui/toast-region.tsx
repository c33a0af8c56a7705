/**
 * The toast region of the dashboard and its queue (loaded on demand by ./toast.ts and by the
 * shell). Toasts are read out by screen readers as they come (React Aria's toast region).
 */
import { Button } from 'react-aria-components/Button';
import { Text } from 'react-aria-components/Text';
import { UNSTABLE_Toast as Toast, UNSTABLE_ToastContent as ToastContent, UNSTABLE_ToastQueue as ToastQueue, UNSTABLE_ToastRegion as ToastRegion } from 'react-aria-components/Toast';
import type { ToastMessage } from './toast.ts';
import './ui.css';

/** The queue every toast of the dashboard goes through (at most 4 shown at once). */
export const toastQueue = new ToastQueue<ToastMessage>({ maxVisibleToasts: 4 });

/** The region in the corner where toasts appear; rendered once by the dashboard's shell. */
export default function Toasts() {
  return (
    <ToastRegion queue={toastQueue} className="ui-toasts" aria-label="Notifications">
      {({ toast }) => (
        <Toast toast={toast} className="ui-toast" data-tone={toast.content.tone ?? 'info'}>
          <ToastContent className="ui-toast-content">
            <Text slot="title" className="ui-toast-title">{toast.content.title}</Text>
            {toast.content.body && <Text slot="description" elementType="div" className="ui-toast-body">{toast.content.body}</Text>}
          </ToastContent>
          <Button slot="close" className="btn btn-ghost btn-sm" aria-label="Close">✕</Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
