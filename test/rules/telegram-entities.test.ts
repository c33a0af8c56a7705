/**
 * Telegram's formatting as the rule table parses it (src/shared/rules/telegram-entities.ts), held against the
 * simulator's own reading (sim/telegram/server.ts `parseEntities`): the text each parse mode shows,
 * and the texts Telegram refuses ("can't parse entities").
 */
import { describe, expect, it } from 'vitest';
import { parseEntities } from '../../sim/telegram/server.ts';
import { telegramParsedText, type TelegramParseMode } from '../../src/shared/rules/telegram-entities.ts';

const shown: Array<[TelegramParseMode, string, string]> = [
  ['HTML', '<b>bold</b> <i>it</i> <u>u</u> <s>s</s> <tg-spoiler>sp</tg-spoiler>', 'bold it u s sp'],
  ['HTML', '<a href="https://example.com/?a=1&amp;b=2">link</a>', 'link'],
  ['HTML', '<pre><code class="language-python">x = 1</code></pre>', 'x = 1'],
  ['HTML', '<blockquote expandable>quote</blockquote>', 'quote'],
  ['HTML', 'a &lt; b &amp;&amp; c &gt; d &quot;q&quot; &#128512; &#x41;', 'a < b && c > d "q" 😀 A'],
  ['HTML', '<span class="tg-spoiler">hidden</span>', 'hidden'],
  ['MarkdownV2', '*bold* _it_ __u__ ~s~ ||sp||', 'bold it u s sp'],
  ['MarkdownV2', '[link](https://example.com/a_b) and \\. \\! \\-', 'link and . ! -'],
  ['MarkdownV2', '`code \\` tick` and ```js\nlet a = 1;```', 'code ` tick and let a = 1;'],
  ['MarkdownV2', '>quoted line\nnext', 'quoted line\nnext'],
  ['Markdown', '*bold* _it_ `code` [link](https://example.com)', 'bold it code link'],
  ['Markdown', 'a.b-c! (fine) in legacy Markdown', 'a.b-c! (fine) in legacy Markdown'],
];

const refused: Array<[TelegramParseMode, string]> = [
  ['HTML', 'a < b'],
  ['HTML', 'Tom & Jerry'],
  ['HTML', '<b>unclosed'],
  ['HTML', '<b><i>crossed</b></i>'],
  ['HTML', '<div>not a Telegram tag</div>'],
  ['MarkdownV2', 'Hello.'],
  ['MarkdownV2', '*unclosed bold'],
  ['MarkdownV2', 'a (parenthesis)'],
  ['MarkdownV2', '`unclosed code'],
  ['Markdown', '*unclosed'],
  ['Markdown', '[text without url]'],
];

describe('Telegram entities parsing', () => {
  it.each(shown)('%s %j shows %j (the rule table and the simulator agree)', (mode, text, expected) => {
    expect(telegramParsedText(text, mode)).toEqual({ ok: true, text: expected });
    expect(parseEntities(text, mode)).toEqual({ text: expected });
  });

  it.each(refused)('%s %j cannot be parsed (the rule table and the simulator agree)', (mode, text) => {
    expect(telegramParsedText(text, mode).ok).toBe(false);
    expect('error' in parseEntities(text, mode)).toBe(true);
  });

  it('without a parse mode the text is shown as it is', () => {
    expect(telegramParsedText('a < b *c*', undefined)).toEqual({ ok: true, text: 'a < b *c*' });
  });
});
