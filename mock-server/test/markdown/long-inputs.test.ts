import { describe, expect, it } from 'vitest';
import { renderMessage, type MarkdownContext } from '../../src/domain/markdown.js';
import type { LinkifierRow } from '../../src/store/state.js';
import { as, TABLES } from './support.js';

/**
 * Repetitive inputs whose passes used to cost quadratic time (nested emphasis, many links, many linkifier
 * matches). The renderer now pairs tokens in one pass; these cases pin the HTML it writes for them, the
 * same at every size (checked against the earlier implementation), so a faster pass cannot change it.
 * No timing is asserted here.
 */

const SIZES = [1, 2, 7, 40];
const repeat = (n: number, s: string) => s.repeat(n);

const twoLinkifiers: LinkifierRow[] = [
  { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://a.example.com/{id}', order: 0 },
  { id: 2, pattern: '!(?P<id>[0-9]+)', url_template: 'https://b.example.com/{id}', order: 1 },
];
const withLinkifiers: MarkdownContext = {
  tables: { ...TABLES, linkifiers: Object.fromEntries(twoLinkifiers.map((l) => [String(l.id), l])) },
  author: as().author,
};

const preview = (url: string, title: string | null) => {
  const enc = encodeURIComponent(url);
  return `<div class="message_inline_image"><a href="${url}"${title === null ? '' : ` title="${title}"`}><img data-src-fullsize="/thumbnail?url=${enc}&amp;size=full" src="/thumbnail?url=${enc}&amp;size=thumbnail"></a></div>`;
};

describe.each(SIZES)('repetitive inputs, %i times', (n) => {
  it.each<[string, string, string]>([
    [
      'nested strong+em pairs',
      repeat(n, '***a ') + repeat(n, 'a***'),
      `<p>${repeat(n, '<strong><em>a ')}a${repeat(n - 1, '</em></strong>a')}</em></strong></p>`,
    ],
    [
      'em around strong with text between stays em outside',
      repeat(n, '*__**a ') + repeat(n, 'a***'),
      `<p>${repeat(n, '<em>__<strong>a ')}a${repeat(n - 1, '</strong></em>a')}</strong></em></p>`,
    ],
    [
      'pairs across line breaks stay literal',
      repeat(n, '***a\n') + repeat(n, 'a***\n'),
      `<p>${[...Array<string>(n).fill('***a'), ...Array<string>(n).fill('a***')].join('<br>\n')}</p>`,
    ],
    ['bare domain names', repeat(n, 'a.co '), `<p>${Array<string>(n).fill('<a href="http://a.co">a.co</a>').join(' ')}</p>`],
    [
      'named image links: one preview',
      repeat(n, '[x](https://e.com/a.png) '),
      `<p>${Array<string>(n).fill('<a href="https://e.com/a.png">x</a>').join(' ')}</p>\n${preview('https://e.com/a.png', 'x')}`,
    ],
  ])('%s', (_label, input, html) => {
    expect(renderMessage(input, as()).html).toBe(html);
  });

  it('matches of two linkifiers, interleaved', () => {
    const link = (url: string, text: string) => `<a href="${url}" title="${url}">${text}</a>`;
    const pair = `${link('https://a.example.com/1', '#1')} ${link('https://b.example.com/1', '!1')}`;
    expect(renderMessage(repeat(n, '#1 !1 '), withLinkifiers).html).toBe(`<p>${Array<string>(n).fill(pair).join(' ')}</p>`);
  });
});
