/**
 * A published YouTube video's details from its post's page (POST /v1/posts/{postId}/update-metadata;
 * docs/decisions/0060-edit-published-posts.md): title, description, tags and privacy in an in-app
 * dialog; only the fields changed are sent, YouTube keeps the others. The server checks YouTube's
 * rules (title length, < and >) and answers the field and rule.
 */
import { useId, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api.ts';
import { ErrorBox } from '../components.tsx';
import { InAppDialog } from '../ui/confirm.tsx';
import { toast } from '../ui/toast.ts';

/** The published YouTube target: its account, description (the post's text) and options as published. */
export interface YouTubeTarget {
  accountId: string;
  text: string;
  options?: Record<string, unknown>;
  tags?: string[];
  visibility?: string;
}

type Privacy = 'public' | 'private' | 'unlisted';
const PRIVACY: Privacy[] = ['public', 'unlisted', 'private'];
const isPrivacy = (v: unknown): v is Privacy => typeof v === 'string' && (PRIVACY as string[]).includes(v);
const tagsOf = (s: string) => s.split(',').map((t) => t.trim()).filter(Boolean);

export function YouTubeDetailsDialog({ postId, target, onClose }: { postId: string; target: YouTubeTarget; onClose: () => void }) {
  const qc = useQueryClient();
  const id = useId();
  const o = target.options ?? {};
  const initial = {
    title: typeof o.title === 'string' ? o.title : '',
    description: target.text,
    tags: (Array.isArray(o.tags) ? o.tags.map(String) : target.tags ?? []).join(', '),
    privacy: isPrivacy(o.privacyStatus) ? o.privacyStatus : isPrivacy(o.visibility) ? o.visibility : isPrivacy(target.visibility) ? target.visibility : 'public',
  };
  const [title, setTitle] = useState(initial.title);
  const [description, setDescription] = useState(initial.description);
  const [tags, setTags] = useState(initial.tags);
  const [privacy, setPrivacy] = useState<Privacy>(initial.privacy);
  const body = {
    platform: 'youtube' as const, accountId: target.accountId,
    ...(title !== initial.title ? { title } : {}),
    ...(description !== initial.description ? { description } : {}),
    ...(tags !== initial.tags ? { tags: tagsOf(tags) } : {}),
    ...(privacy !== initial.privacy ? { privacyStatus: privacy } : {}),
  };
  const changed = Object.keys(body).length > 2;
  const save = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/posts/{postId}/update-metadata', { params: { path: { postId } }, body })),
    onSuccess: (r) => {
      toast({ title: 'Updated on YouTube', body: `Changed: ${r.updatedFields.join(', ')}.`, tone: 'ok' });
      void qc.invalidateQueries({ queryKey: ['post', postId] });
      void qc.invalidateQueries({ queryKey: ['post-logs', postId] });
      onClose();
    },
  });
  return (
    <InAppDialog isOpen onClose={onClose} title="Edit the YouTube video's details" wide>
      <form className="edit-published" onSubmit={(e) => { e.preventDefault(); save.mutate(); }}>
        <p className="muted small">Only what you change is sent; YouTube keeps the rest. The video itself cannot be replaced.</p>
        <div className="field">
          <label htmlFor={`${id}-title`}>Title</label>
          <input id={`${id}-title`} value={title} onChange={(e) => setTitle(e.target.value)} maxLength={1000} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-desc`}>Description</label>
          <textarea id={`${id}-desc`} value={description} onChange={(e) => setDescription(e.target.value)} rows={5} />
        </div>
        <div className="form-row">
          <div className="field grow">
            <label htmlFor={`${id}-tags`}>Tags <span className="hint">(comma-separated)</span></label>
            <input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor={`${id}-privacy`}>Privacy</label>
            <select id={`${id}-privacy`} value={privacy} onChange={(e) => setPrivacy(e.target.value as Privacy)}>
              {PRIVACY.map((p) => <option key={p} value={p}>{p[0].toUpperCase() + p.slice(1)}</option>)}
            </select>
          </div>
        </div>
        <ErrorBox error={save.error} title="Not updated on YouTube" />
        <div className="ui-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending || !changed}>{save.isPending ? 'Saving…' : 'Save on YouTube'}</button>
        </div>
      </form>
    </InAppDialog>
  );
}
