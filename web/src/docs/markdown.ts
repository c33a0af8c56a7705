/**
 * Markdown to HTML for the docs page, in two trust levels:
 * - {@link renderGuide}: Herald's own guides and OpenAPI descriptions (raw HTML allowed: it is
 *   Herald's content), with every code block and table made a keyboard-focusable, labelled
 *   scroll box (WCAG 2.1.1: a region that scrolls must be reachable with the keyboard; axe-core's
 *   rule scrollable-region-focusable, https://dequeuniversity.com/rules/axe/4.10/scrollable-region-focusable).
 * - {@link renderAnswer}: a language model's answer (Ask Docs AI): Markdown without raw HTML
 *   (any HTML in it is shown as text), links only to this site or http(s), no images.
 */
import { Marked, Renderer, type Tokens } from 'marked';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The accessible name of a code block: "Code example", with its language when the fence names one. */
function codeLabel(lang: string | undefined): string {
  const l = (lang ?? '').trim().split(/\s+/)[0];
  return l ? `Code example (${l})` : 'Code example';
}

/** A code block as a focusable, labelled scroll box. */
function codeBlock({ text, lang }: Tokens.Code): string {
  const l = (lang ?? '').trim().split(/\s+/)[0];
  const cls = l ? ` class="language-${escapeHtml(l)}"` : '';
  return `<pre tabindex="0" aria-label="${escapeHtml(codeLabel(lang))}"><code${cls}>${escapeHtml(text.replace(/\n$/, ''))}\n</code></pre>\n`;
}

const guideMarked = new Marked({ gfm: true });
guideMarked.use({
  renderer: {
    code: codeBlock,
    table(token) {
      // The default table, wrapped in a scroll box that the keyboard can reach (wide tables scroll sideways at phone width).
      const inner = Renderer.prototype.table.call(this, token);
      return `<div class="table-scroll" tabindex="0" role="group" aria-label="Table">${inner}</div>\n`;
    },
  },
});

/** Renders Herald's own Markdown (a guide, an OpenAPI description) to HTML with focusable code blocks and tables. */
export function renderGuide(md: string): string {
  return guideMarked.parse(md, { async: false });
}

/** Where an answer's link may lead: an anchor of this page, a path of this site, or an http(s) URL. */
function safeHref(href: string): string | null {
  const h = href.trim();
  if (/^#[\w-]*$/.test(h) || /^\/(?!\/)/.test(h)) return h;
  try {
    const u = new URL(h);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

const answerMarked = new Marked({ gfm: true });
answerMarked.use({
  renderer: {
    code: codeBlock,
    // Raw HTML in the model's text is shown as text, never interpreted.
    html: ({ text }) => escapeHtml(text),
    link({ href, tokens }) {
      const inner = this.parser.parseInline(tokens);
      const to = safeHref(href);
      if (!to) return inner;
      const external = !to.startsWith('#') && !to.startsWith('/');
      return `<a href="${escapeHtml(to)}"${external ? ' rel="noopener noreferrer nofollow" target="_blank"' : ''}>${inner}</a>`;
    },
    // No images from a model's answer: its alt text stands in.
    image: ({ text }) => escapeHtml(text),
  },
});

/** Renders a model's Markdown answer to HTML that is safe to insert: no raw HTML, no script URLs, no images. */
export function renderAnswer(md: string): string {
  return answerMarked.parse(md, { async: false });
}
