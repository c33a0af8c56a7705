import { describe, expect, it } from 'vitest';
import { mentionHandles, parseMentions, type TeamMember } from './mentions.ts';

const team: TeamMember[] = [
  { id: 'a', email: 'ana.lima@agency.test', name: 'Ana Lima' },
  { id: 'b', email: 'bruno@agency.test', name: 'Bruno Costa' },
  { id: 'c', email: 'carla@agency.test', name: 'Ana Souza' },
  { id: 'd', email: 'dan@elsewhere.test', name: null },
];

describe('parseMentions', () => {
  it('finds members by full name, first name, email and its local part, case-insensitively, in order, once each', () => {
    expect(parseMentions('@Bruno Costa and @ana lima, then @BRUNO again', team)).toEqual(['b', 'a']);
    expect(parseMentions('cc @bruno@agency.test and @dan', team)).toEqual(['b', 'd']);
    expect(parseMentions('@ana.lima: look', team)).toEqual(['a']);
  });

  it('a first name two members share names neither; the full name still does', () => {
    expect(mentionHandles(team).has('ana')).toBe(false);
    expect(parseMentions('@Ana check this', team)).toEqual([]);
    expect(parseMentions('@Ana Souza check this', team)).toEqual(['c']);
  });

  it('matches whole handles only: no prefix of a longer word, no email address in the text, a sentence\'s dot ends it', () => {
    expect(parseMentions('@brunoX and @danny', team)).toEqual([]);
    expect(parseMentions('write to ana.lima@agency.test', team)).toEqual([]);
    expect(parseMentions('thanks @dan.', team)).toEqual(['d']);
    expect(parseMentions('no mentions @ here', team)).toEqual([]);
  });
});
