/**
 * The dashboard's one confirmation dialog (React Aria Components' Modal and Dialog: focus kept
 * inside, Escape closes, focus returns to the button that opened it; see
 * https://react-spectrum.adobe.com/react-aria/Modal.html). Every "are you sure?" of the dashboard
 * goes through {@link ConfirmButton}; the browser's own confirm() box is not used.
 */
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components/Button';
import { Dialog, DialogTrigger, Heading } from 'react-aria-components/Dialog';
import { Modal, ModalOverlay } from 'react-aria-components/Modal';
import './ui.css';

/**
 * A button that asks first: it opens an in-app dialog titled `title` with `message`, a Cancel
 * button (focused first, the safe choice) and `confirmLabel`; `onConfirm` runs only on the latter.
 * `children` is the trigger's content (may hold screen-reader-only text naming the item).
 */
export function ConfirmButton({ children, className = 'btn btn-danger', title, message, confirmLabel, onConfirm, isDisabled, danger = true }: {
  children: ReactNode; className?: string; title: string; message?: ReactNode; confirmLabel: string;
  onConfirm: () => void; isDisabled?: boolean; danger?: boolean;
}) {
  return (
    <DialogTrigger>
      <Button className={className} isDisabled={isDisabled}>{children}</Button>
      <ModalOverlay className="ui-overlay" isDismissable>
        <Modal className="ui-modal">
          <Dialog className="ui-dialog" role="alertdialog">
            {({ close }) => (
              <>
                <Heading slot="title" className="ui-dialog-title">{title}</Heading>
                {message && <div className="ui-dialog-body">{message}</div>}
                <div className="ui-dialog-actions">
                  <Button className="btn" autoFocus onPress={close}>Cancel</Button>
                  <Button className={danger ? 'btn btn-danger-solid' : 'btn btn-primary'} onPress={() => { close(); onConfirm(); }}>{confirmLabel}</Button>
                </div>
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

/**
 * An in-app dialog opened from outside (controlled by `isOpen`), for content bigger than a
 * question: a day's posts on the calendar, a form. Closes on Escape, a click outside or `onClose`.
 */
export function InAppDialog({ isOpen, onClose, title, children, wide = false }: { isOpen: boolean; onClose: () => void; title: string; children: ReactNode; wide?: boolean }) {
  return (
    <ModalOverlay className="ui-overlay" isDismissable isOpen={isOpen} onOpenChange={(open) => { if (!open) onClose(); }}>
      <Modal className={`ui-modal${wide ? ' ui-modal-wide' : ''}`}>
        <Dialog className="ui-dialog">
          <div className="ui-dialog-head">
            <Heading slot="title" className="ui-dialog-title">{title}</Heading>
            <Button className="btn btn-ghost btn-sm" onPress={onClose} aria-label="Close">✕</Button>
          </div>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
