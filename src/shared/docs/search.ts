/**
 * "Ask Docs AI" retrieval: a local full-text index (MiniSearch: BM25 with prefix and fuzzy
 * matching) over the documentation sections. Used in the browser (instant, no server) and by
 * the server route that writes grounded answers, so both pick the same sections.
 */
import MiniSearch from 'minisearch';
import { sectionSearchText, type DocSection } from './content.ts';

export interface SearchHit {
  id: string;
  title: string;
  score: number;
  /** A short excerpt around the best-matching words. */
  snippet: string;
}

interface IndexedDoc {
  id: string;
  title: string;
  text: string;
  endpoints: string;
}

const STOP_WORDS = new Set(['a', 'an', 'the', 'how', 'do', 'does', 'i', 'can', 'to', 'of', 'in', 'on', 'for', 'is', 'it', 'what', 'my', 'with', 'and', 'or', 'be', 'are', 'me', 'you', 'your', 'when', 'which', 'there', 'should', 'will', 'use', 'this', 'that']);

export interface DocsIndex {
  search(question: string, limit?: number): SearchHit[];
}

export function buildIndex(sections: DocSection[]): DocsIndex {
  const docs: IndexedDoc[] = sections.map((s) => ({
    id: s.id, title: s.title, text: sectionSearchText(s),
    endpoints: s.endpoints.map((e) => `${e.path} ${e.summary}`).join(' '),
  }));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const ms = new MiniSearch<IndexedDoc>({
    fields: ['title', 'text', 'endpoints'],
    storeFields: ['title'],
    processTerm: (term) => {
      const t = term.toLowerCase();
      return STOP_WORDS.has(t) ? null : t;
    },
    searchOptions: { boost: { title: 3, endpoints: 1.5 }, prefix: (t) => t.length > 3, fuzzy: (t) => (t.length > 5 ? 0.2 : false), combineWith: 'OR' },
  });
  ms.addAll(docs);
  return {
    search(question, limit = 4) {
      const q = question.trim().slice(0, 500);
      if (!q) return [];
      const results = ms.search(q);
      if (!results.length) return [];
      const top = results[0].score;
      return results.filter((r) => r.score >= top * 0.2).slice(0, limit).map((r) => {
        const d = byId.get(String(r.id))!;
        return { id: d.id, title: d.title, score: r.score, snippet: snippet(d.text, r.terms) };
      });
    },
  };
}

function snippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at - 80);
  const s = text.slice(start, start + 260).trim();
  return `${start > 0 ? '…' : ''}${s}${start + 260 < text.length ? '…' : ''}`;
}
