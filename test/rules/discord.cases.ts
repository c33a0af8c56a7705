/** Discord's rule cases (src/shared/rules/discord.ts); the platform's answers come from the Discord simulator (test/contract/discord.test.ts). */
import { image, pdf, times, type RuleCase } from './cases.ts';

const png = () => image('png', 64, 64);
const MIB = 1024 * 1024;
const TEXT = { accountSettings: { channelType: 0 } };
const ANNOUNCEMENT = { accountSettings: { channelType: 5 } };
const FORUM = { accountSettings: { channelType: 15 } };

export const cases: RuleCase[] = [
  { rule: 'discord.text.max_length', inside: { text: 'a'.repeat(2000) }, outside: { text: 'a'.repeat(2001) }, platform: { refuses: /50035.*Must be 2000 or fewer in length/ } },
  { rule: 'discord.text.max_length', name: 'an emoji counts 2 (the strict reading)', inside: { text: `${'a'.repeat(1998)}👍` }, outside: { text: `${'a'.repeat(1999)}👍` }, platform: { refuses: /50035.*Must be 2000 or fewer in length/ } },
  { rule: 'discord.text.max_length', name: 'a thread item', inside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(2000) }] }, outside: { threadItems: [{ content: 'one' }, { content: 'b'.repeat(2001) }] }, platform: { refuses: /50035.*Must be 2000 or fewer in length/ } },
  { rule: 'discord.text.required', inside: { text: 'a' }, outside: { text: '  ' }, platform: { refuses: /Cannot send an empty message \(code 50006\)/ } },
  { rule: 'discord.text.required', name: 'an empty thread item', inside: { threadItems: [{ content: 'one' }, { content: 'two' }] }, outside: { threadItems: [{ content: 'one' }, { content: ' ' }] }, platform: { refuses: /Cannot send an empty message \(code 50006\)/ } },
  { rule: 'discord.media.max_items', inside: { text: 'x', mediaItems: times(10, () => png()) }, outside: { text: 'x', mediaItems: times(11, () => png()) }, platform: { refuses: /30015/ } },
  { rule: 'discord.media.max_bytes', inside: { text: 'x', mediaItems: [image('png', 64, 64, { bytes: 10 * MIB })] }, outside: { text: 'x', mediaItems: [image('png', 64, 64, { bytes: 10 * MIB + 1 })] }, platform: { refuses: /50045/ } },
  { rule: 'discord.media.total_bytes', inside: { text: 'x', mediaItems: [pdf(9 * MIB), pdf(9 * MIB), pdf(7 * MIB - 200_000)] }, outside: { text: 'x', mediaItems: [pdf(9 * MIB), pdf(9 * MIB), pdf(7 * MIB + 1)] }, platform: { refuses: /40005/ } },
  { rule: 'discord.options.boolean', inside: { text: 'x', platformSpecificData: { silent: true, suppressEmbeds: false } }, outside: { text: 'x', platformSpecificData: { silent: 'yes' } }, platform: { notSent: 'the shape of Herald\'s input (the flags are bits Herald computes from booleans)' } },
  { rule: 'discord.thread_name.length', inside: { threadItems: [{ content: 'one' }, { content: 'two' }], platformSpecificData: { threadName: 't'.repeat(100) } }, outside: { threadItems: [{ content: 'one' }, { content: 'two' }], platformSpecificData: { threadName: 't'.repeat(101) } }, platform: { refuses: /50035.*name/ } },
  { rule: 'discord.forum_tags.max', inside: { text: 'x', platformSpecificData: { forumAppliedTags: times(5, (i) => String(100 + i)) } }, outside: { text: 'x', platformSpecificData: { forumAppliedTags: times(6, (i) => String(100 + i)) } }, platform: { notSent: 'the simulator\'s channel is a text channel; the forum refusal is its own contract case' } },
  { rule: 'discord.forum_only', inside: { text: 'x', platformSpecificData: { forumThreadName: 'News' }, ...FORUM }, outside: { text: 'x', platformSpecificData: { forumThreadName: 'News' }, ...TEXT }, platform: { notSent: 'a text channel takes no thread name: Discord would ignore the option rather than refuse it' } },
  { rule: 'discord.crosspost.announcement_only', inside: { text: 'x', platformSpecificData: { crosspost: true }, ...ANNOUNCEMENT }, outside: { text: 'x', platformSpecificData: { crosspost: true }, ...TEXT }, platform: { notSent: 'Herald crossposts only from an announcement channel (the option is left out elsewhere); Discord\'s refusal of a crosspost elsewhere (50024) is the contract test\'s own case' } },
];
