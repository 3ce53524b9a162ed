import { describe, expect, it } from 'vitest';
import { htmlDiff } from '../../src/domain/edit-delete/html-diff.js';

/** content_html_diff of get-message-history: word-level marks as the reference server writes them. */
const ins = (text: string) => `<span class="highlight_text_inserted">${text}</span>`;
const del = (text: string) => `<span class="highlight_text_deleted">${text}</span>`;

describe('content_html_diff', () => {
  it('marks a replaced word inside its paragraph, the added word first (the reference test case)', () => {
    expect(htmlDiff('<p>content before edit</p>', '<p>content after edit</p>')).toBe(
      `<div><p>content ${ins('after')} ${del('before')} edit</p></div>`,
    );
  });

  it('marks a replaced paragraph as a new one and the old one (the reference example)', () => {
    expect(htmlDiff('<p>Hello!</p>', '<p>Howdy!</p>')).toBe(`<div><p>${ins('Howdy!')}</p> <p>${del('Hello!')}</p></div>`);
  });

  it('leaves unchanged renderings unmarked and keeps equal words with the new markup', () => {
    expect(htmlDiff('<p>same words</p>', '<p>same words</p>')).toBe('<div><p>same words</p></div>');
    expect(htmlDiff('<p>one two</p>', '<p>one <em>two</em></p>')).toBe('<div><p>one <em>two</em></p></div>');
  });

  it('groups consecutive words in one mark and pushes marks inside new blocks', () => {
    expect(htmlDiff('<p>a</p>', '<p>a b c</p>')).toBe(`<div><p>a ${ins('b c')} </p></div>`);
    expect(htmlDiff('<p>one two</p>', '<p>one two</p>\n<p>three</p>')).toBe(`<div><p>one two</p> <p>${ins('three')}</p></div>`);
  });

  it('keeps only balanced tags of removed words, so the result has the new structure', () => {
    expect(htmlDiff('<p>one <strong>bold</strong> two</p>', '<p>one two</p>')).toBe(
      `<div><p>one ${del('<strong>bold</strong>')} two</p></div>`,
    );
    const out = htmlDiff('<p>x y</p>', '<ul>\n<li>x</li>\n<li>y z</li>\n</ul>');
    expect(out.match(/<li>/g)).toHaveLength(2);
    expect(out).toContain(ins('z'));
    expect(out).not.toContain('<p>');
  });
});
