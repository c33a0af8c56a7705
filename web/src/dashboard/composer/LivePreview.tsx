/**
 * The composer's live preview: every selected account's post as its platform's feed shows it
 * (./Preview.tsx), or one account at a time, chosen with the "Preview as" buttons. Beside the
 * form on wide screens, under its own tab on phones (Composer.tsx).
 */
import { useState } from 'react';
import type { Account } from '../api.ts';
import { PlatformBadge } from '../components.tsx';
import { PostPreview, type PreviewMedia } from './Preview.tsx';

export interface PreviewTarget { account: Account; text: string; data: Record<string, unknown>; media: PreviewMedia[] }

export function LivePreview({ targets }: { targets: PreviewTarget[] }) {
  const [only, setOnly] = useState<string>('all');
  const shown = only === 'all' ? targets : targets.filter((t) => t.account._id === only);
  // The account chosen was deselected: back to all of them.
  const list = shown.length ? shown : targets;
  if (targets.length === 0) return <p className="muted">Pick an account to see how the post will look there.</p>;
  return (
    <>
      {targets.length > 1 && (
        <div className="pv-switch" role="group" aria-label="Preview as">
          <button type="button" className="btn btn-sm" aria-pressed={only === 'all' || shown.length === 0} onClick={() => setOnly('all')}>All ({targets.length})</button>
          {targets.map((t) => (
            <button key={t.account._id} type="button" className="btn btn-sm" aria-pressed={only === t.account._id} onClick={() => setOnly(t.account._id)}>
              <PlatformBadge platform={t.account.platform} /> <span className="sr-only">Preview as </span>@{t.account.username.replace(/^@/, '')}
            </button>
          ))}
        </div>
      )}
      {/* Focusable: on wide screens it scrolls on its own (keyboard users scroll it with the arrows). */}
      <div className="previews" role="group" aria-label="Previews" tabIndex={0}>
        {list.map((t) => <PostPreview key={t.account._id} account={t.account} text={t.text} data={t.data} media={t.media} />)}
      </div>
    </>
  );
}
