/**
 * Editing a published post's text from its page (POST /v1/posts/{postId}/edit;
 * docs/decisions/0060-edit-published-posts.md): an "Edit text" button on each published target
 * whose platform Herald edits (src/shared/edits.ts), opening an in-app dialog with the text; the
 * server checks the platform's rules and answers the field and rule when the text breaks one. A
 * published target on a platform that cannot be edited says why instead.
 */
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { InAppDialog } from '../ui/confirm.tsx';
import { toast } from '../ui/toast.ts';
import { PUBLISHED_EDITS } from '../../../../src/shared/edits.ts';
import { capabilitiesOf } from '../../../../src/shared/capabilities.ts';
import { PLATFORM_LABELS, isPlatformId } from '../../../../src/shared/platforms.ts';
import { YouTubeDetailsDialog } from './youtube-details.tsx';
import './posts.css';

/** What the button needs of a target. */
export interface EditableTarget {
  platform: string;
  accountId: string;
  status: string;
  removedFromPlatformAt?: string;
  /** The text on the platform now: the target's own text, else the post's. */
  text: string;
  /** The target's platform options (YouTube: title, tags, privacyStatus). */
  options?: Record<string, unknown>;
  /** The post's tags and visibility, where the options have none. */
  tags?: string[];
  visibility?: string;
}

/** The "Edit text" action of one published target, or why it cannot be edited; nothing for a target not published. */
export function EditPublishedAction({ postId, target }: { postId: string; target: EditableTarget }) {
  const [open, setOpen] = useState(false);
  if (target.status !== 'published' || target.removedFromPlatformAt || !isPlatformId(target.platform)) return null;
  const rule = PUBLISHED_EDITS[target.platform];
  if (!rule.herald) {
    return <p className="muted small edit-unavailable">{rule.platform ? `Herald does not edit ${PLATFORM_LABELS[target.platform]} posts yet.` : `${PLATFORM_LABELS[target.platform]} posts cannot be edited after publishing.`}</p>;
  }
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => setOpen(true)}>{target.platform === 'youtube' ? 'Edit details' : 'Edit text'}<span className="sr-only"> on {PLATFORM_LABELS[target.platform]}</span></button>
      {open && (target.platform === 'youtube'
        ? <YouTubeDetailsDialog postId={postId} target={target} onClose={() => setOpen(false)} />
        : <EditDialog postId={postId} target={target} onClose={() => setOpen(false)} />)}
    </>
  );
}

function EditDialog({ postId, target, onClose }: { postId: string; target: EditableTarget; onClose: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const [text, setText] = useState(target.text);
  const platform = target.platform as keyof typeof PUBLISHED_EDITS;
  const label = PLATFORM_LABELS[platform];
  const { maxTextLength: max, textUnit } = capabilitiesOf(platform);
  // The platform's own unit: UTF-16 units (Discord) count a string's length, the others its characters.
  const count = textUnit === 'UTF-16 units' ? text.length : [...text].length;
  const save = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/edit', { params: { path: { postId } }, body: { platform, accountId: target.accountId, content: text } })),
    onSuccess: (r) => {
      toast({ title: `Edited on ${label}`, body: r.url ? `The post on ${label} now has the new text.` : r.message, tone: 'ok' });
      void qc.invalidateQueries({ queryKey: ['post', postId] });
      void qc.invalidateQueries({ queryKey: ['post-logs', postId] });
      void qc.invalidateQueries({ queryKey: ['posts'] });
      onClose();
    },
  });
  return (
    <InAppDialog isOpen onClose={onClose} title={`Edit the ${label} post`} wide>
      <form className="edit-published" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        <p className="muted small">The text changes on {label} itself: {PUBLISHED_EDITS[platform].what}.</p>
        <div className="field">
          <label htmlFor={`${id}-text`}>Text</label>
          <textarea id={`${id}-text`} value={text} onChange={(e) => setText(e.target.value)} rows={6} required aria-describedby={`${id}-count`} />
          <p id={`${id}-count`} className={`muted small${count > max ? ' over' : ''}`}>{count.toLocaleString('en-US')} / {max.toLocaleString('en-US')} {textUnit === 'UTF-16 units' ? 'characters' : textUnit}</p>
        </div>
        <ErrorBox error={save.error} title={`Not edited on ${label}`} />
        <div className="ui-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !text.trim() || text === target.text}>{save.isPending ? 'Saving…' : `Save on ${label}`}</button>
        </div>
      </form>
    </InAppDialog>
  );
}
