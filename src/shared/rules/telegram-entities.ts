/**
 * Telegram's formatting options (https://core.telegram.org/bots/api#formatting-options): the text a
 * message shows once its entities are parsed, for the three `parse_mode`s. Telegram's length
 * limits (text 1-4096, captions 0-1024) count that parsed text, so the rule table measures it here.
 *
 * What is checked, honestly: the tags and entities each mode documents (HTML: the listed tags, the
 * four named entities and numeric ones, a bare `<` or `&` refused; MarkdownV2: the markers, escapes
 * and the reserved characters that must be escaped; Markdown: the legacy markers). Nesting rules
 * beyond "every entity is closed in the order it was opened" (e.g. which entities may nest in
 * which) are left to Telegram, which answers "can't parse entities".
 * Pure: shared by the server's rule check and the composer.
 */

/** The `parse_mode`s of the Bot API. */
export const TELEGRAM_PARSE_MODES = ['HTML', 'MarkdownV2', 'Markdown'] as const;
export type TelegramParseMode = (typeof TELEGRAM_PARSE_MODES)[number];

/** The parsed text (what Telegram counts), or why Telegram would refuse it ("can't parse entities: ..."). */
export type ParsedText = { ok: true; text: string } | { ok: false; error: string };

const HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'tg-emoji', 'code', 'pre', 'blockquote']);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

function parseHtml(src: string): ParsedText {
  let out = '';
  const open: string[] = [];
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '<') {
      const end = src.indexOf('>', i);
      if (end < 0) return { ok: false, error: `Unclosed start tag at byte offset ${i}` };
      const raw = src.slice(i + 1, end).trim();
      const closing = raw.startsWith('/');
      const name = (closing ? raw.slice(1) : raw).split(/[\s=]/)[0].toLowerCase();
      if (!HTML_TAGS.has(name)) return { ok: false, error: `Unsupported start tag "${name}" at byte offset ${i}` };
      if (name === 'span' && !closing && !/class\s*=\s*"tg-spoiler"/.test(raw)) return { ok: false, error: `Tag "span" must have class "tg-spoiler" at byte offset ${i}` };
      if (closing) {
        if (open.pop() !== name) return { ok: false, error: `Unmatched end tag at byte offset ${i}, expected "</${open.at(-1) ?? ''}>", found "</${name}>"` };
      } else {
        open.push(name);
      }
      i = end + 1;
    } else if (c === '&') {
      const m = /^&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/i.exec(src.slice(i, i + 12));
      if (!m) return { ok: false, error: `Character '&' at byte offset ${i} must be written as &amp;` };
      const e = m[1];
      if (e.startsWith('#')) out += String.fromCodePoint(e[1].toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
      else if (NAMED[e.toLowerCase()]) out += NAMED[e.toLowerCase()];
      else return { ok: false, error: `Unsupported HTML entity "&${e};" at byte offset ${i}` };
      i += m[0].length;
    } else if (c === '>') {
      return { ok: false, error: `Character '>' at byte offset ${i} must be written as &gt;` };
    } else {
      out += c;
      i += 1;
    }
  }
  if (open.length) return { ok: false, error: `Can't find end tag corresponding to start tag "${open.at(-1)}"` };
  return { ok: true, text: out };
}

/** MarkdownV2: characters that must be escaped with `\` outside entities. */
const V2_RESERVED = new Set('_*[]()~`>#+-=|{}.!'.split(''));

function parseMarkdownV2(src: string): ParsedText {
  let out = '';
  const open: string[] = [];
  const lineStart = (i: number) => i === 0 || src[i - 1] === '\n';
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '\\') {
      const next = src[i + 1];
      if (next === undefined || next.charCodeAt(0) > 126) return { ok: false, error: `Character '\\' at byte offset ${i} must be escaped` };
      out += next;
      i += 2;
      continue;
    }
    if (c === '`') {
      const pre = src.startsWith('```', i);
      const fence = pre ? '```' : '`';
      let j = i + fence.length;
      let body = '';
      while (j < src.length && !src.startsWith(fence, j)) {
        if (src[j] === '\\' && j + 1 < src.length) { body += src[j + 1]; j += 2; } else { body += src[j]; j += 1; }
      }
      if (j >= src.length) return { ok: false, error: `Can't find end of ${pre ? 'Pre' : 'Code'} entity at byte offset ${i}` };
      if (pre) {
        // The first line, when not empty and followed by more, names the language.
        const nl = body.indexOf('\n');
        if (nl >= 0) body = body.slice(nl + 1);
      }
      out += body;
      i = j + fence.length;
      continue;
    }
    if (c === '>' && lineStart(i)) { i += 1; continue; }
    if (src.startsWith('**>', i) && lineStart(i)) { i += 3; continue; }
    if (c === '|' && src[i + 1] === '|') {
      if (open.at(-1) === '||') open.pop(); else open.push('||');
      i += 2;
      continue;
    }
    if (c === '_' && src[i + 1] === '_') {
      if (open.at(-1) === '__') { open.pop(); i += 2; continue; }
      if (open.at(-1) !== '_') { open.push('__'); i += 2; continue; }
    }
    if (c === '*' || c === '_' || c === '~') {
      if (open.at(-1) === c) open.pop(); else open.push(c);
      i += 1;
      continue;
    }
    if (c === '!' && src[i + 1] === '[') { i += 1; continue; }
    if (c === '[') { open.push('['); i += 1; continue; }
    if (c === ']') {
      if (open.at(-1) !== '[') return { ok: false, error: `Character ']' is reserved and must be escaped with the preceding '\\'` };
      open.pop();
      if (src[i + 1] !== '(') return { ok: false, error: `Can't find end of TextUrl entity at byte offset ${i}` };
      let j = i + 2;
      while (j < src.length && src[j] !== ')') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) return { ok: false, error: `Can't find end of a URL at byte offset ${i + 1}` };
      i = j + 1;
      continue;
    }
    if (V2_RESERVED.has(c)) return { ok: false, error: `Character '${c}' is reserved and must be escaped with the preceding '\\'` };
    out += c;
    i += 1;
  }
  if (open.length) return { ok: false, error: `Can't find end of the entity starting with '${open.at(-1)}'` };
  return { ok: true, text: out };
}

function parseMarkdown(src: string): ParsedText {
  let out = '';
  for (let i = 0; i < src.length;) {
    const c = src[i];
    if (c === '\\' && '_*`['.includes(src[i + 1] ?? '')) { out += src[i + 1]; i += 2; continue; }
    if (c === '*' || c === '_' || c === '`') {
      const fence = c === '`' && src.startsWith('```', i) ? '```' : c;
      const end = src.indexOf(fence, i + fence.length);
      if (end < 0) return { ok: false, error: `Can't find end of the entity starting at byte offset ${i}` };
      let body = src.slice(i + fence.length, end);
      if (fence === '```') { const nl = body.indexOf('\n'); if (nl >= 0) body = body.slice(nl + 1); }
      out += fence.startsWith('`') ? body : parseMarkdownPlain(body);
      i = end + fence.length;
      continue;
    }
    if (c === '[') {
      const close = src.indexOf(']', i);
      if (close < 0 || src[close + 1] !== '(') return { ok: false, error: `Can't find end of the entity starting at byte offset ${i}` };
      const paren = src.indexOf(')', close);
      if (paren < 0) return { ok: false, error: `Can't find end of the entity starting at byte offset ${i}` };
      out += src.slice(i + 1, close);
      i = paren + 1;
      continue;
    }
    out += c;
    i += 1;
  }
  return { ok: true, text: out };
}

/** Inside a legacy Markdown entity: escapes resolved. */
const parseMarkdownPlain = (s: string) => s.replace(/\\([_*`[])/g, '$1');

/** The text Telegram shows for `text` sent with `parseMode` (none: the text as it is), or the parse error. */
export function telegramParsedText(text: string, parseMode: TelegramParseMode | undefined): ParsedText {
  if (parseMode === 'HTML') return parseHtml(text);
  if (parseMode === 'MarkdownV2') return parseMarkdownV2(text);
  if (parseMode === 'Markdown') return parseMarkdown(text);
  return { ok: true, text };
}
