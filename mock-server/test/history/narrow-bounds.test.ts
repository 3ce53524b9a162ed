import { describe, expect, it } from 'vitest';
import { MAX_NARROW_TERMS } from '../../src/domain/messages/narrow.js';
import { MAX_SEARCH_WORD_LENGTH, MAX_SEARCH_WORDS, searchQuery } from '../../src/domain/messages/narrow-search.js';
import type { MessageRow } from '../../src/store/state.js';
import { call } from '../helpers/test-server.js';
import { channelId, error, messages, useDemo } from '../messages/support.js';
import { getMessages, ids } from './support.js';

/**
 * Bounded work per narrow: too many terms, too many search words or one too long a word answer a 400
 * before any message is read (the answer is asserted here; how fast it comes is bench/'s business), and
 * the search matcher keeps its meaning for ordinary words without compiling a pattern per word.
 */

const env = useDemo();
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const search = (operand: string) => [{ operator: 'search', operand }];

describe('narrow bounds', () => {
  it.each([
    ['50,000 search words', search(words(50_000)), error(`Too many search words (limit: ${MAX_SEARCH_WORDS}).`)],
    [
      'one word of 20,000 characters',
      search('x'.repeat(20_000)),
      error(`A search word is too long (limit: ${MAX_SEARCH_WORD_LENGTH} characters).`),
    ],
    [
      'a quoted phrase beyond the word length',
      search(`"${'ab '.repeat(100)}"`),
      error(`A search word is too long (limit: ${MAX_SEARCH_WORD_LENGTH} characters).`),
    ],
    [
      'words counted across every search term',
      [...search(words(MAX_SEARCH_WORDS)), ...search('one more')],
      error(`Too many search words (limit: ${MAX_SEARCH_WORDS}).`),
    ],
    [
      'more terms than the limit',
      Array.from({ length: MAX_NARROW_TERMS + 1 }, () => ({ operator: 'in', operand: 'all' })),
      error(`Too many narrow terms (limit: ${MAX_NARROW_TERMS}).`),
    ],
  ])('%s: a 400, and the server answers an unrelated request meanwhile', async (_label, narrow, expected) => {
    const form = { anchor: 'newest', num_before: '10', num_after: '0', narrow: JSON.stringify(narrow), op: 'add', flag: 'read' };
    const [refused, unrelated] = await Promise.all([
      // A body, not a query string: 50,000 words do not fit in the request line.
      call(env.server, 'POST', '/api/v1/messages/flags/narrow', { as: env.who.guest!, form }),
      call(env.server, 'GET', '/api/v1/users/me', { as: env.who.member! }),
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(expected);
    expect(unrelated.status).toBe(200);
    expect(unrelated.body.email).toBe(env.who.member!.email);
  });

  it('GET /messages answers the same 400 for a 20,000-character word, and accepts the limits themselves', async () => {
    const long = await getMessages(env, env.who.guest!, { anchor: 'newest', num_before: 5, narrow: search('y'.repeat(20_000)) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual(error(`A search word is too long (limit: ${MAX_SEARCH_WORD_LENGTH} characters).`));
    const atLimit = [...search(words(MAX_SEARCH_WORDS - 1)), ...search('z'.repeat(MAX_SEARCH_WORD_LENGTH))];
    const ok = await getMessages(env, env.who.member!, { anchor: 'newest', num_before: 5, narrow: atLimit });
    expect(ok.status).toBe(200);
    expect(ids(ok.body)).toEqual([]);
    const terms = Array.from({ length: MAX_NARROW_TERMS }, () => ({ operator: 'in', operand: 'all' }));
    const many = await getMessages(env, env.who.member!, { anchor: 'newest', num_before: 1, narrow: terms });
    expect(many.status).toBe(200);
  });

  it('a word the regular-expression engine would have refused is only a word that matches nothing', async () => {
    const id = channelId('public');
    const res = await getMessages(env, env.who.member!, {
      anchor: 'newest',
      num_before: 5,
      narrow: [{ operator: 'channel', operand: id }, ...search('(?<![ [\\p{L}]*+ a{99999}')],
    });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([]);
    expect(messages(env.t).some((m) => m.stream_id === id)).toBe(true);
  });
});

describe('the search matcher', () => {
  const row = (content: string, subject = '', rendered = `<p>${content}</p>`) =>
    ({ content, subject, rendered_content: rendered }) as MessageRow;

  it.each([
    ['deploy', 'We are DEPLOYING today', true],
    ['deploy', 'redeploy later', false],
    ['hello,', 'say hello!', true],
    ['"lo wor"', 'hello world', true],
    ['"lo wor"', 'hello, world', false],
    ['ümlaut', 'ÜMLAUT everywhere', true],
    ['a b', 'a only', false],
    ['a b', 'b then a', true],
    ['!!!', 'anything', true],
    ['𝒜b', 'x 𝒜bc', true],
    ['bc', '𝒜bc', false],
  ])('%j in %j: %s', (operand, content, matches) => {
    expect(searchQuery(operand).test(row(content))).toBe(matches);
  });

  it('matches the topic too, and every word must match in one of the two', () => {
    expect(searchQuery('launch plan').test(row('the plan', 'Launch day'))).toBe(true);
    expect(searchQuery('launch plan').test(row('the plan', 'day'))).toBe(false);
  });

  it('highlights whole words and phrases outside tags, leftmost first, never overlapping', () => {
    const q = searchQuery('deploy "ing to"');
    const m = row('', 'Deploy <now>', '<p><a href="deploy">Deploying to</a> prod, redeploy</p>');
    expect(q.highlight(m)).toEqual({
      match_content: '<p><a href="deploy"><span class="highlight">Deploying</span> to</a> prod, redeploy</p>',
      match_subject: '<span class="highlight">Deploy</span> &lt;now&gt;',
    });
    expect(searchQuery('"ploy" de').highlight(row('', '', 'deploy')).match_content).toBe('<span class="highlight">deploy</span>');
    expect(searchQuery('"dep" de').highlight(row('', '', 'deploy')).match_content).toBe('<span class="highlight">dep</span>loy');
    // A character whose lower case is longer (İ) leaves every later match where it was.
    expect(searchQuery('deploy').highlight(row('', '', 'İİ deploy')).match_content).toBe('İİ <span class="highlight">deploy</span>');
  });
});
