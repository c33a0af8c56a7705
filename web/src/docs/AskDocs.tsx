import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { DocSection } from '../../../src/shared/docs/content.ts';
import type { DocsIndex, SearchHit } from '../../../src/shared/docs/search.ts';
import { renderAnswer } from './markdown.ts';

interface Answer { answer: string; model: string }

/** Renders the model's Markdown answer: formatting, lists, code and links, but never raw HTML (markdown.ts). */
function AnswerText({ text }: { text: string }) {
  const html = useMemo(() => renderAnswer(text), [text]);
  return <div className="ai-answer-text" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A fenced code block's place in `md`, if `at` falls inside one: [start, end). */
function fenceAround(md: string, at: number): [number, number] | null {
  const re = /```[\s\S]*?```/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(md))) {
    if (m.index <= at && at < m.index + m[0].length) return [m.index, m.index + m[0].length];
    if (m.index > at) break;
  }
  return null;
}

/**
 * The excerpt of a section's guide around the question's first matching word, from the
 * Markdown itself so that code stays code: a code block the excerpt cuts is taken whole
 * (up to 700 characters). Null when the guide does not contain any of the words.
 */
export function codeSnippet(guide: string, question: string): string | null {
  const words = question.toLowerCase().split(/[^a-z0-9_/.-]+/).filter((w) => w.length > 2);
  const lower = guide.toLowerCase();
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return null;
  let start = Math.max(0, at - 80);
  let end = Math.min(guide.length, at + 260);
  const a = fenceAround(guide, start);
  if (a) start = a[0];
  const b = fenceAround(guide, end - 1);
  if (b) end = Math.min(b[1], start + 700);
  return `${start > 0 ? '…' : ''}${guide.slice(start, end).trim()}${end < guide.length ? '…' : ''}`;
}

/** An excerpt with its code: fenced blocks as code blocks, `inline code` as code, the rest as text. */
function SnippetText({ text }: { text: string }) {
  const out: ReactNode[] = [];
  let i = 0;
  for (const [k, part] of text.split(/(```[\s\S]*?(?:```|$))/).entries()) {
    if (!part) continue;
    if (part.startsWith('```')) {
      out.push(<pre key={k} className="ask-code" tabIndex={0} aria-label="Code example"><code>{part.replace(/^```[^\n]*\n?/, '').replace(/```$/, '').trimEnd()}</code></pre>);
      continue;
    }
    const pieces = part.replace(/^#+\s*/gm, '').replace(/\*\*/g, '').split(/(`[^`\n]+`)/);
    // A backtick left alone is half of code the excerpt cut: dropped.
    out.push(<p key={k}>{pieces.map((x) => (x.startsWith('`') && x.endsWith('`') && x.length > 2 ? <code key={i++}>{x.slice(1, -1)}</code> : x.replace(/`/g, '')))}</p>);
  }
  return <div className="ask-snippet">{out}</div>;
}

/**
 * "Ask Docs AI": retrieval over the docs with a local full-text index (MiniSearch, loaded on
 * first use), and, when the server has an OpenAI-compatible endpoint configured, an answer
 * grounded on the same sections from POST /docs-ai/answer.
 */
export function AskDocs({ open, onClose, sections, aiEnabled }: { open: boolean; onClose: () => void; sections: DocSection[]; aiEnabled: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [question, setQuestion] = useState('');
  const [hits, setHits] = useState<SearchHit[] | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [answerError, setAnswerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const index = useRef<{ sections: DocSection[]; index: DocsIndex } | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    // Focus goes to the question field when the dialog opens (showModal alone would focus the close button).
    if (open && !d.open) { d.showModal(); input.current?.focus(); }
    if (!open && d.open) d.close();
  }, [open]);

  async function ask(e: React.FormEvent) {
    e.preventDefault();
    const q = question.trim();
    if (!q) return;
    setBusy(true);
    setAnswer(null);
    setAnswerError(null);
    try {
      if (!index.current || index.current.sections !== sections) {
        const { buildIndex } = await import('../../../src/shared/docs/search.ts');
        index.current = { sections, index: buildIndex(sections) };
      }
      setHits(index.current.index.search(q, 4));
      if (aiEnabled) {
        const res = await fetch('/docs-ai/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: q }) });
        const body = await res.json() as Answer & { error?: string };
        if (!res.ok) setAnswerError(body.error ?? `HTTP ${res.status}`);
        else setAnswer(body);
      }
    } catch (err) {
      setAnswerError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={dialog} className="ask-dialog" aria-labelledby="ask-title" onClose={onClose} onCancel={onClose}>
      <div className="ask-head">
        <h2 id="ask-title">Ask Docs AI</h2>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onClose} aria-label="Close">✕</button>
      </div>
      <form onSubmit={ask} className="ask-form">
        <label htmlFor="ask-input" className="sr-only">Your question</label>
        {/* A text field, not type=search: Escape in a search field only clears it, and one Escape must close the dialog. */}
        <input id="ask-input" ref={input} type="text" role="searchbox" value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="e.g. How do I add a post to the queue?" maxLength={500} autoComplete="off" />
        <button type="submit" className="btn btn-primary" disabled={busy || !question.trim()}>{busy ? 'Searching…' : 'Ask'}</button>
      </form>
      {!aiEnabled && (
        <p className="hint ask-mode">Retrieval only: this server has no AI endpoint configured, so Ask Docs AI shows the most relevant sections of the docs (set HERALD_DOCS_AI_URL for written answers).</p>
      )}
      <div aria-live="polite">
        {answer && (
          <section className="ai-answer" aria-label="Answer">
            <h3>Answer <span className="muted">({answer.model}, from the sections below)</span></h3>
            <AnswerText text={answer.answer} />
          </section>
        )}
        {answerError && <p className="alert alert-warn">No written answer: {answerError}. The most relevant sections are below.</p>}
        {hits && hits.length === 0 && <p>No section matches that question. Try other words, or browse the table of contents.</p>}
        {hits && hits.length > 0 && (
          <>
            <h3 className="ask-sources-title">Most relevant sections</h3>
            <ol className="ask-results">
              {hits.map((h) => (
                <li key={h.id}>
                  <a href={`#${h.id}`} onClick={onClose}>{h.title}</a> <span className="muted">#{h.id}</span>
                  {(() => {
                    const guide = sections.find((x) => x.id === h.id)?.guide;
                    const code = guide ? codeSnippet(guide, question) : null;
                    return code ? <SnippetText text={code} /> : <p>{h.snippet}</p>;
                  })()}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </dialog>
  );
}
