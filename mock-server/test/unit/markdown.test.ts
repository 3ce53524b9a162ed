import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/domain/markdown.js';

// Input → HTML, from the reference server's rendering rules (reference doc §4.20).
describe('renderMarkdown', () => {
  it.each([
    ['', ''],
    ['test_input', '<p>test_input</p>'],
    ["it's lunch time", "<p>it's lunch time</p>"],
    ['test\nbar', '<p>test<br>\nbar</p>'],
    ['**bold**', '<p><strong>bold</strong></p>'],
    ['*em*', '<p><em>em</em></p>'],
    ['~~x~~', '<p><del>x</del></p>'],
    ['# Hello world', '<h1>Hello world</h1>'],
    ['#Hello world', '<p>#Hello world</p>'],
    ['####### seven', '<p>####### seven</p>'],
    ['`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
    ['```\nfenced code\n```', '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>'],
    ['```Python\nx = 1\n```', '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = 1\n</code></pre></div>'],
    ['    indented', '<div class="codehilite"><pre><span></span><code>indented\n</code></pre></div>'],
    ['> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
    ['* a\n* b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
    ['https://example.com', '<p><a href="https://example.com">https://example.com</a></p>'],
    ['[hello](https://example.com/x)', '<p><a href="https://example.com/x">hello</a></p>'],
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ])('%j', (input, html) => {
    expect(renderMarkdown(input)).toBe(html);
  });
});
