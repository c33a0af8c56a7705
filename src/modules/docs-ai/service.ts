/**
 * "Ask Docs AI" answers: retrieval over the same sections as the docs page (guides + the
 * live OpenAPI document, indexed with MiniSearch), then, when an OpenAI-compatible endpoint
 * is configured (HERALD_DOCS_AI_URL, _KEY, _MODEL), a chat completion grounded on the
 * retrieved sections only. The key stays on the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../core/errors.ts';
import type { Config } from '../../config.ts';
import { buildSections, sectionMarkdown, type DocSection, type OpenApiDoc } from '../../shared/docs/content.ts';
import { buildIndex, type DocsIndex } from '../../shared/docs/search.ts';

export const GUIDES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/docs/guides');
/** Most text of the retrieved sections sent to the model. */
const CONTEXT_CHARS = 14_000;

/** Reads every guide (`<anchor>.md`) of the docs page. */
export function readGuides(dir = GUIDES_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of fs.readdirSync(dir)) if (f.endsWith('.md')) out[f.slice(0, -3)] = fs.readFileSync(path.join(dir, f), 'utf8');
  return out;
}

export interface DocsAnswer {
  answer: string;
  model: string;
  sources: Array<{ id: string; title: string; url: string }>;
}

/**
 * The docs AI. `openapi`: the OpenAPI document the app serves, read on the first question (the
 * app sets it when it is built: {@link DocsAiService.useOpenApi}); until then only the guides.
 */
export function createDocsAiService(opts: { config: Pick<Config, 'docsAi'>; openapi?: () => OpenApiDoc; fetch?: typeof fetch }) {
  let openapi = opts.openapi;
  let cached: { sections: DocSection[]; index: DocsIndex } | null = null;
  const corpus = () => {
    if (!cached) {
      const sections = buildSections(readGuides(), openapi ? openapi() : { paths: {} });
      cached = { sections, index: buildIndex(sections) };
    }
    return cached;
  };
  const doFetch = opts.fetch ?? globalThis.fetch;

  return {
    enabled: () => opts.config.docsAi !== null,

    /** Sets where the OpenAPI document comes from (the app's served document); the corpus is built again on the next question. */
    useOpenApi(source: () => OpenApiDoc): void {
      openapi = source;
      cached = null;
    },

    /**
     * @throws AppError SERVICE_UNAVAILABLE when no endpoint is configured or it fails.
     */
    async answer(question: string): Promise<DocsAnswer> {
      const ai = opts.config.docsAi;
      if (!ai) throw new AppError('SERVICE_UNAVAILABLE', 'Docs AI answers are not configured on this server (set HERALD_DOCS_AI_URL); the docs page shows the matching sections only');
      const { sections, index } = corpus();
      const hits = index.search(question, 4);
      const sources = hits.map((h) => ({ id: h.id, title: h.title, url: `/docs#${h.id}` }));
      let context = '';
      for (const h of hits) {
        const md = sectionMarkdown(sections.find((s) => s.id === h.id)!);
        const room = CONTEXT_CHARS - context.length;
        if (room <= 200) break;
        context += `\n\n<section anchor="#${h.id}" title="${h.title}">\n${md.slice(0, room)}\n</section>`;
      }
      const messages = [
        {
          role: 'system',
          content: 'You answer questions about the Herald API (a self-hosted social-media scheduling service with a Late-compatible REST API). ' +
            'Use ONLY the documentation sections given below. If they do not contain the answer, say that the documentation does not cover it. ' +
            'Be concise; include a short curl or JSON example when it helps. Cite the sections you used as Markdown links to their anchors, e.g. [Posts](#posts).' +
            `\n\nDocumentation sections:${context || '\n(none matched)'}`,
        },
        { role: 'user', content: question },
      ];
      let res: Response;
      try {
        res = await doFetch(`${ai.url}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {}) },
          body: JSON.stringify({ model: ai.model, messages, temperature: 0.2, max_tokens: 700 }),
          signal: AbortSignal.timeout(45_000),
        });
      } catch (err) {
        throw new AppError('SERVICE_UNAVAILABLE', `The Docs AI endpoint could not be reached: ${(err as Error).message}`);
      }
      const body = await res.json().catch(() => null) as { choices?: Array<{ message?: { content?: string } }>; model?: string; error?: { message?: string } } | null;
      const text = body?.choices?.[0]?.message?.content;
      if (!res.ok || typeof text !== 'string') {
        throw new AppError('SERVICE_UNAVAILABLE', `The Docs AI endpoint answered ${res.status}${body?.error?.message ? `: ${body.error.message}` : ''}`);
      }
      return { answer: text.trim(), model: body?.model ?? ai.model, sources };
    },
  };
}

export type DocsAiService = ReturnType<typeof createDocsAiService>;
