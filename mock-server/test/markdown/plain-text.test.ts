import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedHtml, plainParagraph } from '../../src/domain/markdown/engine.js';
import { RenderEnv } from '../../src/domain/markdown/env.js';
import { renderMarkdown, type MarkdownContext } from '../../src/domain/markdown.js';
import { as, TABLES } from './support.js';

// Plain text skips the parser (engine.ts plainParagraph): the shortcut must give the parser's HTML exactly.

/** The realm's linkifiers and one more: it matches plain text, with an `x`. */
const withPlainLinkifier: MarkdownContext = {
  tables: {
    ...TABLES,
    linkifiers: { ...TABLES.linkifiers, 7: { id: 7, pattern: '(?P<id>[a-z]+x)', url_template: 'https://x.example/{id}', order: 5 } },
  },
  author: as().author,
};

/** A linkifier whose matches need no one character: no text skips the parser. */
const withOpenLinkifier: MarkdownContext = {
  tables: {
    ...TABLES,
    linkifiers: { 8: { id: 8, pattern: '(?P<id>[A-Z][0-9]|[0-9][A-Z])', url_template: 'https://y.example/{id}', order: 0 } },
  },
  author: as().author,
};

const contexts: [string, MarkdownContext | null][] = [
  ['no context', null],
  ['the realm (its linkifiers need # or /)', as()],
  ['a linkifier that matches plain text', withPlainLinkifier],
];

/** Mostly plain characters, and the characters plain text excludes, which must leave the text to the parser. */
const character = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...'abcxyzABCZ0129 ') },
  { weight: 4, arbitrary: fc.constantFrom(...',;?!\'"-') },
  { weight: 1, arbitrary: fc.constantFrom(...'.:#@*_~`&<>|\\[]()=+/\n\t$%^{}é') },
);
const content = fc.array(character, { minLength: 1, maxLength: 30 }).map((cs) => cs.join(''));

/** A linkifier nested deeper than the reading follows (RE2 takes it): it needs nothing the reading can name. */
const withDeepLinkifier: MarkdownContext = {
  tables: {
    ...TABLES,
    linkifiers: {
      9: { id: 9, pattern: `${'(?:'.repeat(2000)}#(?P<id>x)${')'.repeat(2000)}`, url_template: 'https://z.example/{id}', order: 0 },
    },
  },
  author: as().author,
};

describe('plain text without the parser', () => {
  it.each(contexts)('gives the parser’s HTML (%s)', (_name, ctx) => {
    let shortcut = 0;
    fc.assert(
      fc.property(content, (text) => {
        const fast = plainParagraph(text, new RenderEnv(ctx));
        if (fast === null) return;
        shortcut++;
        expect(fast).toBe(parsedHtml(text, new RenderEnv(ctx)));
      }),
      { numRuns: 3000 },
    );
    expect(shortcut).toBeGreaterThan(300); // not vacuous
  });

  it('renders in a realm whose linkifier is nested past the reading’s depth', () => {
    expect(renderMarkdown('hello', withDeepLinkifier)).toBe('<p>hello</p>');
    expect(renderMarkdown('see #x', withDeepLinkifier)).toBe('<p>see <a href="https://z.example/x" title="https://z.example/x">#x</a></p>');
  });

  it.each<[string, string]>([
    ['bench 12', '<p>bench 12</p>'],
    ["it's 5 o'clock, isn't it?  ", "<p>it's 5 o'clock, isn't it?</p>"],
    ['say "hi" - twice!', '<p>say "hi" - twice!</p>'],
  ])('%j is one paragraph of itself', (text, html) => {
    expect(plainParagraph(text, new RenderEnv(as()))).toBe(html);
    expect(parsedHtml(text, new RenderEnv(as()))).toBe(html);
  });

  it.each<[string, MarkdownContext | null]>([
    ['  indented', null], // leading spaces: the parser decides (four make code)
    ['ends with a dot.', null], // `.`: bare-URL linkify reads it
    ['see #12', as()], // the ticket linkifier needs `#`
    ['fix boxx', withPlainLinkifier], // a linkifier that needs `x` finds one
    ['plain words', withOpenLinkifier], // a linkifier that needs nothing the reading can name
    ['deep', withDeepLinkifier], // nor one nested past the reading's depth
  ])('%j goes to the parser', (text, ctx) => {
    expect(plainParagraph(text, new RenderEnv(ctx))).toBeNull();
  });
});
