import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SiteHeader, SkipLink } from '../shared/Header.tsx';
import { readConfig } from '../shared/config.ts';
import { SECTION_META, buildSections, curlSample, docsMarkdown, jsSample, type DocSection, type Endpoint, type OpenApiDoc } from '../../../src/shared/docs/content.ts';
import { AskDocs } from './AskDocs.tsx';
import { renderGuide } from './markdown.ts';

const guides = import.meta.glob('../../../src/shared/docs/guides/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const GUIDES: Record<string, string> = Object.fromEntries(Object.entries(guides).map(([file, md]) => [file.replace(/^.*\/|\.md$/g, ''), md]));

/** Milliseconds "Copied!" stays on the button (2 seconds, as on the compatible service's docs page). */
export const COPIED_MS = 2000;

function Markdown({ source }: { source: string }) {
  // The guides and the OpenAPI descriptions are Herald's own content, rendered as HTML (code blocks and tables focusable).
  const html = useMemo(() => renderGuide(source), [source]);
  return <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}

function CodeTabs({ ep }: { ep: Endpoint }) {
  const [tab, setTab] = useState<'curl' | 'js'>('curl');
  const code = tab === 'curl' ? curlSample(ep) : jsSample(ep);
  const id = `${ep.anchor}-code`;
  return (
    <div className="code-tabs">
      <div role="tablist" aria-label="Code sample language">
        {(['curl', 'js'] as const).map((t) => (
          <button key={t} type="button" role="tab" id={`${id}-${t}`} aria-selected={tab === t} aria-controls={`${id}-panel`} onClick={() => setTab(t)}>
            {t === 'curl' ? 'curl' : 'JavaScript'}
          </button>
        ))}
      </div>
      <pre id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${tab}`} tabIndex={0}><code>{code}</code></pre>
    </div>
  );
}

function FieldTable({ rows, withIn, label }: { rows: Array<{ name: string; type: string; required: boolean; description: string; in?: string }>; withIn?: boolean; label: string }) {
  return (
    // Scrolls sideways on a phone: a keyboard stop with a name (axe-core rule scrollable-region-focusable).
    <div className="table-wrap" tabIndex={0} role="group" aria-label={label}>
      <table>
        <thead><tr><th scope="col">Name</th>{withIn && <th scope="col">In</th>}<th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.in ?? ''}${r.name}`}>
              <td><code>{r.name}</code></td>{withIn && <td>{r.in}</td>}<td className="type">{r.type}</td><td>{r.required ? 'yes' : 'no'}</td><td>{r.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EndpointCard({ ep }: { ep: Endpoint }) {
  const okExample = ep.responses.find((r) => !r.isError && r.example !== null);
  return (
    <article className="endpoint" aria-labelledby={ep.anchor}>
      <h3 id={ep.anchor}><a href={`#${ep.anchor}`} className="anchor-link">{ep.summary}</a></h3>
      <p className="endpoint-line"><span className={`method method-${ep.method.toLowerCase()}`}>{ep.method}</span> <code>{ep.path}</code></p>
      {ep.description && <Markdown source={ep.description} />}
      {ep.params.length > 0 && (<><h4>Parameters</h4><FieldTable rows={ep.params} withIn label={`Parameters of ${ep.method} ${ep.path}`} /></>)}
      {ep.multipart && <p><strong>Request body</strong>: <code>multipart/form-data</code> with the files in the field <code>files</code>.</p>}
      {ep.body && (
        <>
          <h4>Request body <span className="muted">(application/json)</span></h4>
          {ep.body.fields.length > 0 && <FieldTable rows={ep.body.fields} label={`Request body fields of ${ep.method} ${ep.path}`} />}
          <pre tabIndex={0} aria-label="Example request body"><code>{JSON.stringify(ep.body.example, null, 2)}</code></pre>
        </>
      )}
      <h4>Responses</h4>
      <ul className="responses">
        {ep.responses.map((r) => (
          <li key={r.status}><span className={`status ${r.isError ? 'status-err' : 'status-ok'}`}>{r.status}</span> {r.description}</li>
        ))}
      </ul>
      {okExample && (
        <details>
          <summary>Example response ({okExample.status})</summary>
          <pre tabIndex={0} aria-label={`Example response (${okExample.status})`}><code>{JSON.stringify(okExample.example, null, 2)}</code></pre>
        </details>
      )}
      <CodeTabs ep={ep} />
    </article>
  );
}

function Section({ s, loading }: { s: DocSection; loading: boolean }) {
  return (
    <section id={s.id} className="doc-section" aria-labelledby={`${s.id}-title`}>
      <h2 id={`${s.id}-title`}><a href={`#${s.id}`} className="anchor-link">{s.title}</a></h2>
      <Markdown source={s.guide} />
      {s.unavailable && <p className="alert alert-info">This Herald server does not serve these endpoints yet; the contract above is what they follow.</p>}
      {loading && <p className="muted">Loading the endpoint reference…</p>}
      {s.endpoints.map((ep) => <EndpointCard key={ep.anchor} ep={ep} />)}
    </section>
  );
}

/** The section whose top has passed the sticky header (the one being read). */
function useSectionInView(ids: readonly string[]): [string, (id: string) => void] {
  const [active, setActive] = useState(ids[0]);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      let current = ids[0];
      for (const id of ids) {
        const el = document.getElementById(id);
        if (el && el.getBoundingClientRect().top <= 96) current = id;
      }
      setActive(current);
    };
    const onScroll = () => { if (!frame) frame = requestAnimationFrame(update); };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    update();
    return () => { window.removeEventListener('scroll', onScroll); window.removeEventListener('resize', onScroll); if (frame) cancelAnimationFrame(frame); };
  }, [ids]);
  return [active, setActive];
}

export function DocsPage() {
  const config = useMemo(readConfig, []);
  const [doc, setDoc] = useState<OpenApiDoc | null>(null);
  const [docError, setDocError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const [askOpen, setAskOpen] = useState(false);
  const copiedTimer = useRef<number | undefined>(undefined);
  // The contents start folded on narrow screens (the sidebar is always shown on wide ones).
  const [tocOpen, setTocOpen] = useState(() => window.matchMedia('(min-width: 861px)').matches);

  useEffect(() => {
    fetch('/v1/openapi.json')
      .then(async (r) => { if (!r.ok) throw new Error(`HTTP ${r.status}`); setDoc(await r.json() as OpenApiDoc); })
      .catch((e: Error) => setDocError(e.message));
  }, []);

  const sections = useMemo(() => buildSections(GUIDES, doc), [doc]);
  const ids = useMemo(() => sections.map((s) => s.id), [sections]);
  const [active, setActive] = useSectionInView(ids);
  const loading = !doc && !docError;

  // The endpoint reference arrives after the first paint: keep a deep link's target in place.
  useEffect(() => {
    if (!doc || !location.hash) return;
    document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [doc]);

  const copyMarkdown = useCallback(() => {
    const md = docsMarkdown(sections, location.origin);
    const done = () => {
      setCopied(true);
      setCopyFailed(false);
      window.clearTimeout(copiedTimer.current);
      copiedTimer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
    };
    const fail = () => setCopyFailed(true);
    try {
      if (!navigator.clipboard?.writeText) { fail(); return; }
      navigator.clipboard.writeText(md).then(done, fail);
    } catch {
      fail();
    }
  }, [sections]);

  return (
    <>
      <SkipLink target="docs-content" />
      <SiteHeader current="/docs" />
      <div className="docs-layout">
        <aside className="docs-sidebar" aria-label="Documentation">
          <details className="toc-mobile" open={tocOpen} onToggle={(e) => setTocOpen((e.target as HTMLDetailsElement).open)}>
            <summary>Contents</summary>
            <nav aria-label="Table of contents" className="toc">
              <ol>
                {sections.map((s) => (
                  <li key={s.id}>
                    <a href={`#${s.id}`} aria-current={active === s.id ? 'location' : undefined} className={active === s.id ? 'active' : undefined} onClick={() => setActive(s.id)}>{s.title}</a>
                  </li>
                ))}
              </ol>
            </nav>
          </details>
          <div className="help-block" role="complementary" aria-labelledby="help-title">
            <h2 id="help-title">Need help?</h2>
            <p>Email <a href={`mailto:${config.supportEmail}`}>{config.supportEmail}</a> or open the <a href="/dashboard">dashboard</a>.</p>
          </div>
        </aside>
        <main id="docs-content" className="docs-main" tabIndex={-1}>
          <div className="docs-title-row">
            <div>
              <h1>Herald API documentation</h1>
              <p className="muted">REST API at <code>{location.origin}/v1</code> · <a href="/v1/openapi.json">OpenAPI document</a></p>
            </div>
            <div className="docs-actions">
              <button type="button" className="btn btn-primary" onClick={() => setAskOpen(true)} aria-haspopup="dialog">Ask Docs AI</button>
              <button type="button" className="btn" onClick={copyMarkdown} disabled={loading} aria-live="polite">{copied ? 'Copied!' : 'Copy as Markdown'}</button>
              {copyFailed && <span className="copy-failed" role="status" style={{ color: 'var(--err)', alignSelf: 'center' }}>Failed to copy to clipboard: your browser refused access. Select the text and copy it yourself.</span>}
            </div>
          </div>
          {docError && <p className="alert alert-error" role="alert">The endpoint reference could not be loaded from /v1/openapi.json ({docError}). The guides below are complete.</p>}
          {sections.map((s) => <Section key={s.id} s={s} loading={loading && !!SECTION_META[s.id].expectsEndpoints} />)}
        </main>
      </div>
      <AskDocs open={askOpen} onClose={() => setAskOpen(false)} sections={sections} aiEnabled={config.docsAi} />
    </>
  );
}
