import { describe, expect, it } from 'vitest';
import { renderMessage, topicLinks, type MarkdownContext } from '../../src/domain/markdown.js';
import { checkLinkifier, type LinkifierError } from '../../src/domain/markdown/linkifier-patterns.js';
import type { LinkifierRow } from '../../src/store/state.js';
import { as, LINKIFIERS, TABLES } from './support.js';

const pattern = (message: string): LinkifierError => ({ field: 'pattern', message });
const template = (message: string): LinkifierError => ({ field: 'url_template', message });
const whole = (message: string): LinkifierError => ({ field: '__all__', message });

// Reference §4.18: the exact messages, in the reference server's order of checks.
describe('checkLinkifier', () => {
  it.each<[string, string, LinkifierError | null]>([
    ['', 'https://example.com/{id}', pattern('This field cannot be blank.')],
    ['', '', pattern('This field cannot be blank.')],
    ['(foo', 'https://example.com/{id}', pattern('Bad regular expression: missing ): (foo')],
    ['ZUL-(?P<id>\\d????)', 'https://example.com/{id}', pattern('Bad regular expression: bad repetition operator: ????')],
    ['[', '{id', pattern('Bad regular expression: missing ]: [')],
    ['a(?=b)', 'https://example.com', pattern('Bad regular expression: invalid perl operator: (?=')],
    ['#(?P<id>[0-9]+)', '', template('This field cannot be blank.')],
    ['#(?P<id>[123])', '{id', template('Invalid URL template.')],
    ['(?P<id>x)', 'https://example.com/{{}', template('Invalid URL template.')],
    ['(?P<foo>x)', 'https://example.com/{//foo}', template('Invalid URL template.')],
    ['(?P<bar>x)', 'https://example.com/{bar++}', template('Invalid URL template.')],
    ['(?P<id>x)', 'https://example.com/{!id}', template('Invalid URL template.')],
    ['(?P<id>x)', 'https://example.com/{}', template('Invalid URL template.')],
    ['(?P<id>x)', 'https://example.com/{id}}', template('Invalid URL template.')],
    ['ZUL-(?P<id>\\d+)', 'https://example.com/{id', template('Invalid URL template.')],
    ['ZUL-(?P<id>\\d+)', '$fgfg', whole("Group 'id' in linkifier pattern is not present in URL template.")],
    [
      'ZUL-(?P<id>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      whole("Group 'hello' in URL template is not present in linkifier pattern."),
    ],
    [
      'ZUL-(?P<id>\\d+)-(?P<hello>\\d+)',
      'https://realm.com/my_realm_filter/{hello}',
      whole("Group 'id' in linkifier pattern is not present in URL template."),
    ],
    ['(?P<b>x)(?P<a>y)', 'https://example.com/{z}/{y}', whole("Group 'y' in URL template is not present in linkifier pattern.")],
    ['(?P<b>x)(?P<a>y)', 'https://example.com/', whole("Group 'a' in linkifier pattern is not present in URL template.")],
    // Accepted patterns must also compile as the renderer runs them, or they would never apply.
    ['T(?P<__tc_match>\\d+)', 'https://t.example/{__tc_match}', pattern('Bad regular expression: Duplicate capture group name')],
    ['[(?P<no>x)](?P<id>\\d)', 'https://example.com/{id}', null],
    ['#(?P<id>[0-9]+)', 'https://trac.example.com/ticket/{id}', null],
    ['no-groups', 'https://example.com/', null],
    ['x', '$not_a_url$', null],
    ['x', 'https://example.com/%%(foo)s', null],
    ['(?<id>\\d+)', 'https://example.com/{id}', null],
    ['(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issues/{id}', null],
    [
      'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
      'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
      null,
    ],
  ])('%j with %j', (p, t, error) => {
    expect(checkLinkifier(p, t)).toEqual(error);
  });

  it('refuses a pattern too large for RE2 with the RE2 text, without compiling it', () => {
    expect(checkLinkifier('a'.repeat(10_001), 'https://example.com/')).toEqual(
      pattern('Bad regular expression: pattern too large - compile failed'),
    );
    expect(checkLinkifier('a'.repeat(2_000), 'https://example.com/')).toBeNull();
  });
});

// Spec §2.5 topic_links: linkifier order, then position; the earlier linkifier wins an overlap.
describe('topicLinks', () => {
  const trac = (n: number) => ({ text: `#${n}`, url: `https://trac.example.com/ticket/${n}` });
  const extra: LinkifierRow[] = [
    { id: 9, pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z.example.com/{id}?q={id}', order: -1 },
    { id: 7, pattern: '(?P<word>[a-z]+)#(?P<n>[0-9]+)', url_template: 'https://w.example.com/{word}/{n}', order: 0 },
  ];
  it.each<[string, string, LinkifierRow[], { text: string; url: string }[]]>([
    ['no linkifiers', '#1', [], []],
    ['empty topic', '', LINKIFIERS, []],
    ['one match', 'bug #1234', LINKIFIERS, [trac(1234)]],
    ['several, by position', '#3 then #1, (#2)', LINKIFIERS, [trac(3), trac(1), trac(2)]],
    ['not inside words', 'a#1 #2b #3_ #4.', LINKIFIERS, [trac(3), trac(4)]],
    [
      'linkifier order before position',
      '#1 zulip/server#2',
      LINKIFIERS,
      [trac(1), { text: 'zulip/server#2', url: 'https://github.com/zulip/server/issues/2' }],
    ],
    ['order field, then ID', 'ZUL-5 #6', [...LINKIFIERS, ...extra], [{ text: 'ZUL-5', url: 'https://z.example.com/5?q=5' }, trac(6)]],
    [
      'the earlier linkifier wins an overlap',
      'ab#5',
      [extra[1]!, { ...LINKIFIERS[1]!, order: 5 }],
      [{ text: 'ab#5', url: 'https://w.example.com/ab/5' }],
    ],
    [
      'template expansion encodes',
      'x#5 and ZUL-7',
      [{ id: 3, pattern: '(?P<q>x#5)', url_template: 'https://e.example.com/?q={q}', order: 0 }],
      [{ text: 'x#5', url: 'https://e.example.com/?q=x%235' }],
    ],
    ['after astral characters', '😀 #8 😀#9', LINKIFIERS, [trac(8)]],
    ['a broken stored pattern is skipped', '#1', [{ id: 5, pattern: '(', url_template: 'x', order: -5 }, ...LINKIFIERS], [trac(1)]],
  ])('%s', (_label, topic, linkifiers, links) => {
    expect(topicLinks(topic, linkifiers)).toEqual(links);
  });
});

// Texts longer than 2000 units are searched in windows (linkifiers.ts); the matches must be the same.
describe('linkifiers on long texts', () => {
  const texts = (links: { text: string }[]) => links.map((l) => l.text).sort();

  it('finds what short pieces find, long matches and astral characters included', () => {
    const piece = `${'x'.repeat(300)} #${'1'.repeat(100)} 😀 #7, ab/cd#9 `;
    const links = topicLinks(piece.repeat(12), LINKIFIERS);
    expect(links).toHaveLength(36);
    expect(texts(links)).toEqual(texts(Array.from({ length: 12 }, () => topicLinks(piece, LINKIFIERS)).flat()));
  });

  it('never takes a window start for the start of the text', () => {
    expect(topicLinks('a#1'.repeat(1500), LINKIFIERS)).toEqual([]);
    // After `#1` the search resumes at the second `#`, which must not count as a start of text.
    expect(texts(topicLinks('#1#2 '.repeat(600), LINKIFIERS))).toEqual(Array<string>(600).fill('#1'));
    expect(topicLinks(`${'é#1'.repeat(1000)} #2`, LINKIFIERS)).toEqual([{ text: '#2', url: 'https://trac.example.com/ticket/2' }]);
  });

  it('links every match of a long message line', () => {
    const html = renderMessage('#1 '.repeat(1000).trim(), as()).html;
    expect(html.match(/<a href="https:\/\/trac\.example\.com\/ticket\/1" title=/g)).toHaveLength(1000);
  });
});

// A linkifier's expanded URL passes the same link validation as every link (links.ts: http, https, mailto,
// tel, sms and relative URLs); anything else leaves the matched text as text.
describe('linkifier URLs outside the allowed schemes', () => {
  const withLinkifiers = (rows: LinkifierRow[]): MarkdownContext => ({
    tables: { ...TABLES, linkifiers: Object.fromEntries(rows.map((l) => [String(l.id), l])) },
    author: as().author,
  });
  const row = (id: number, pattern: string, url_template: string, order = id): LinkifierRow => ({ id, pattern, url_template, order });
  it.each<[string, LinkifierRow[], string, string]>([
    ['javascript: stays text', [row(1, '#(?P<id>[0-9]+)', 'javascript:x({id})')], 'see #12', '<p>see #12</p>'],
    ['JavaScript: in capitals too', [row(1, '#(?P<id>[0-9]+)', 'JavaScript:alert({id})')], '#12', '<p>#12</p>'],
    [
      'data: and ftp: stay text',
      [row(1, 'D(?P<id>[0-9]+)', 'data:text/html,{id}'), row(2, 'F(?P<id>[0-9]+)', 'ftp://f.example.com/{id}')],
      'D1 F2',
      '<p>D1 F2</p>',
    ],
    [
      'relative and mailto: link',
      [row(1, 'R(?P<id>[0-9]+)', '/r/{id}'), row(2, 'M(?P<id>[a-z]+)', 'mailto:{id}@example.com')],
      'R1 Mab',
      '<p><a href="/r/1" title="/r/1">R1</a> <a href="mailto:ab@example.com" title="mailto:ab@example.com">Mab</a></p>',
    ],
    [
      'other matches still link',
      [row(1, 'J(?P<id>[0-9]+)', 'javascript:x({id})'), row(2, '#(?P<id>[0-9]+)', 'https://t.example.com/{id}')],
      'J1 #2',
      '<p>J1 <a href="https://t.example.com/2" title="https://t.example.com/2">#2</a></p>',
    ],
  ])('%s', (_label, rows, input, html) => {
    expect(renderMessage(input, withLinkifiers(rows)).html).toBe(html);
  });
});
