import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../src/domain/markdown.js';
import { as } from './support.js';

const IMG = 'https://example.com/pics/logo.png';
const THUMB = '/thumbnail?url=https%3A%2F%2Fexample.com%2Fpics%2Flogo.png';
const preview = (title = '') =>
  `<div class="message_inline_image"><a href="${IMG}"${title}><img data-src-fullsize="${THUMB}&amp;size=full" src="${THUMB}&amp;size=thumbnail"></a></div>`;
const smile = '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>';

// Reference doc §4.20, every rendering rule that needs no realm data, verbatim.
const REFERENCE: [string, string][] = [
  ['', ''],
  ['test_input', '<p>test_input</p>'],
  ["it's lunch time", "<p>it's lunch time</p>"],
  ['test\nbar', '<p>test<br>\nbar</p>'],
  ['**bold**', '<p><strong>bold</strong></p>'],
  ['*em*', '<p><em>em</em></p>'],
  ['~~x~~', '<p><del>x</del></p>'],
  ['# Hello world', '<h1>Hello world</h1>'],
  ['#Hello world', '<p>#Hello world</p>'],
  ['####### Hello world', '<p>####### Hello world</p>'],
  ['`<&nbsp;>`', '<p><code>&lt;&amp;nbsp;&gt;</code></p>'],
  ['```\nfenced code\n```', '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>'],
  ['    fenced code', '<div class="codehilite"><pre><span></span><code>fenced code\n</code></pre></div>'],
  ['> quoted', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
  ['~~~ quote\nquoted\n~~~', '<blockquote>\n<p>quoted</p>\n</blockquote>'],
  ['* a\n* b', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>'],
  ['https://example.com', '<p><a href="https://example.com">https://example.com</a></p>'],
  ['[hello](https://example.com/x)', '<p><a href="https://example.com/x">hello</a></p>'],
  ['[](https://example.com/x)', '<p><a href="https://example.com/x">https://example.com/x</a></p>'],
  [
    'Hello [world]\n\n[world]: https://example.com',
    '<p>Hello [world]</p>\n<p>[world]: <a href="https://example.com">https://example.com</a></p>',
  ],
  [':smile:', `<p>${smile}</p>`],
  [':foo:', '<p>:foo:</p>'],
];

// Reference doc §4.20, the cases that need realm data, verbatim with the names of support.ts (the doc's own
// `Denmark`, `core>testing` with its newest message 107, and the `#(?P<id>[0-9]+)` trac linkifier;
// `Full Name` is King Hamlet, user 1).
const REFERENCE_WITH_REALM: [string, string][] = [
  ['@**King Hamlet**', '<p><span class="user-mention" data-user-id="1">@King Hamlet</span></p>'],
  ['@_**King Hamlet**', '<p><span class="user-mention silent" data-user-id="1">King Hamlet</span></p>'],
  ['@**Nobody**', '<p>@<strong>Nobody</strong></p>'],
  ['@**all**', '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>'],
  ['#**Denmark**', '<p><a class="stream" data-stream-id="1" href="/#narrow/channel/1-Denmark">#Denmark</a></p>'],
  [
    '#**core>testing**',
    '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-core/topic/testing/with/107">#core &gt; testing</a></p>',
  ],
  ['#**nowhere**', '<p>#<strong>nowhere</strong></p>'],
  ['#1234', '<p><a href="https://trac.example.com/ticket/1234" title="https://trac.example.com/ticket/1234">#1234</a></p>'],
];

// The rest of the reference server's conventions (reference §4.20 "likely" rules made exact) and ours.
const EXTENSIONS: [string, string][] = [
  // Quotes stay unescaped in text and inline code; `&<>` are escaped; attributes keep `&quot;`.
  ['say "hi" & <b>', '<p>say "hi" &amp; &lt;b&gt;</p>'],
  ['`"q" \'s\'`', '<p><code>"q" \'s\'</code></p>'],
  ['[a "b"](https://example.com/?q="x")', '<p><a href="https://example.com/?q=%22x%22">a "b"</a></p>'],
  ['& &amp; &amp;amp;', '<p>&amp; &amp; &amp;amp;</p>'],
  // No raw HTML.
  ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
  ['<h1>stay normal</h1> thanks', '<p>&lt;h1&gt;stay normal&lt;/h1&gt; thanks</p>'],
  // Emphasis: never across a line, no underscores, strong outside em, loose `~~`.
  ['**a\nb**', '<p>**a<br>\nb**</p>'],
  ['*a\nb*', '<p>*a<br>\nb*</p>'],
  ['_foo_ and __bar__', '<p>_foo_ and __bar__</p>'],
  ['***foo***', '<p><strong><em>foo</em></strong></p>'],
  ['I ~~ like software ~~ love hardware', '<p>I <del> like software </del> love hardware</p>'],
  ['~~a **b** c~~', '<p><del>a <strong>b</strong> c</del></p>'],
  ['const char *x = (char *)y', '<p>const char *x = (char *)y</p>'],
  ['#  Hello world', '<h1>Hello world</h1>'],
  ['###### Hello world', '<h6>Hello world</h6>'],
  ['Hello\n===', '<p>Hello<br>\n===</p>'],
  // Code blocks: highlighting spans with Pygments class names, the language's Pygments name.
  [
    '```Python\ndef speak(self):\n    x = 1\n```',
    '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span>(self):\n    x = <span class="mi">1</span>\n</code></pre></div>',
  ],
  [
    '``` py2\nprint("Hello World")\n```',
    '<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code><span class="nb">print</span>(<span class="s2">&quot;Hello World&quot;</span>)\n</code></pre></div>',
  ],
  [
    "```js\nlet s = 'x'; // done\n```",
    '<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="k">let</span> s = <span class="s1">&#39;x&#39;</span>; <span class="c1">// done</span>\n</code></pre></div>',
  ],
  [
    '```python\n"""one\ntwo"""\n```',
    '<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="s2">&quot;&quot;&quot;one</span>\n<span class="s2">two&quot;&quot;&quot;</span>\n</code></pre></div>',
  ],
  [
    '``` inventedlanguage\ndef speak(self):\n    x = 1\n```',
    '<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):\n    x = 1\n</code></pre></div>',
  ],
  [
    '```text\nplain <b>\n```',
    '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>plain &lt;b&gt;\n</code></pre></div>',
  ],
  ['~~~~.python\nx\n~~~~', '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x\n</code></pre></div>'],
  [
    '~~~\n\nprint \'x\' "y"  \t\n\n~~~',
    '<div class="codehilite"><pre><span></span><code>print &#39;x&#39; &quot;y&quot;\n</code></pre></div>',
  ],
  [
    'Hamlet said:\n~~~\nx = 1\n~~~\nAnd all was good.',
    '<p>Hamlet said:</p>\n<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>\n<p>And all was good.</p>',
  ],
  ['```inline code```', '<p><code>inline code</code></p>'],
  // Quote and spoiler fences, nesting with code fences, Markdown inside.
  [
    '```quote\nTo be or **not** to be.\n\nThat is the question\n```',
    '<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>',
  ],
  ['~~~quote\n# line 1\n#line 2\n~~~', '<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>'],
  [
    '~~~ quote\nsee:\n```\ncode ~~~\n~~~\n```\nafter\n~~~\nout',
    '<blockquote>\n<p>see:</p>\n<div class="codehilite"><pre><span></span><code>code ~~~\n~~~\n</code></pre></div>\n<p>after</p>\n</blockquote>\n<p>out</p>',
  ],
  [
    '~~~ spoiler Header\ncontent\n~~~',
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>Header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>',
  ],
  [
    '```spoiler\ncontent\n```\noutside spoiler',
    '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>',
  ],
  [
    '```spoiler [Header](https://example.com) :smile:\ncontent\n```',
    `<div class="spoiler-block"><div class="spoiler-header">\n<p><a href="https://example.com">Header</a> ${smile}</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>`,
  ],
  [
    '~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote',
    '<blockquote>\n<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>',
  ],
  [
    '~~~ spoiler <script>\n<b>\n~~~',
    '<div class="spoiler-block"><div class="spoiler-header">\n<p>&lt;script&gt;</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>&lt;b&gt;</p>\n</div></div>',
  ],
  // Lists and tables.
  ['Some text:\n* One\n* Two', '<p>Some text:</p>\n<ul>\n<li>One</li>\n<li>Two</li>\n</ul>'],
  [
    'a | b\n--- | ---\n1 | 2',
    '<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>',
  ],
  // Links: schemes, bare names, what stays text.
  ['[  ](https://example.com/x)', '<p><a href="https://example.com/x">https://example.com/x</a></p>'],
  ['with short example.com url', '<p>with short <a href="http://example.com">example.com</a> url</p>'],
  ['a@b.com', '<p><a href="mailto:a@b.com">a@b.com</a></p>'],
  ['<a@b.com>', '<p>&lt;<a href="mailto:a@b.com">a@b.com</a>&gt;</p>'],
  ['readme.md and views.py', '<p>readme.md and views.py</p>'],
  [
    '[call me](tel:+14155551234) [mail](mailto:a@b.com) [rel](/help)',
    '<p><a href="tel:+14155551234">call me</a> <a href="mailto:a@b.com">mail</a> <a href="/help">rel</a></p>',
  ],
  ['[foo](javascript:alert(1))', '<p>[foo](javascript:alert(1))</p>'],
  ['[foo](itms://itunes.com/apps/x)', '<p>[foo](itms://itunes.com/apps/x)</p>'],
  ['ftp://example.com and //example.com', '<p>ftp://example.com and //example.com</p>'],
  ['![alt](https://example.com/a.txt)', '<p>!<a href="https://example.com/a.txt">alt</a></p>'],
  ['<https://example.com>', '<p>&lt;<a href="https://example.com">https://example.com</a>&gt;</p>'],
  [
    '(http://example.com/wiki/Each-way_(bet))',
    '<p>(<a href="http://example.com/wiki/Each-way_(bet)">http://example.com/wiki/Each-way_(bet)</a>)</p>',
  ],
  // Image previews.
  [IMG, preview()],
  [`Logo: ${IMG}\nnice`, `<p>Logo: <a href="${IMG}">${IMG}</a><br>\nnice</p>\n${preview()}`],
  [`[Logo](${IMG})`, `<p><a href="${IMG}">Logo</a></p>\n${preview(' title="Logo"')}`],
  [`${IMG} ${IMG}`, `<p><a href="${IMG}">${IMG}</a> <a href="${IMG}">${IMG}</a></p>\n${preview()}`],
  [`* a\n* b ${IMG}`, `<ul>\n<li>a</li>\n<li>b <a href="${IMG}">${IMG}</a>${preview()}</li>\n</ul>`],
  [`> ${IMG}`, `<blockquote>\n<p><a href="${IMG}">${IMG}</a></p>\n</blockquote>`],
  ['https://example.com/a.png.txt', '<p><a href="https://example.com/a.png.txt">https://example.com/a.png.txt</a></p>'],
  // Emoji by name, typed characters, the extra emoji; never in code.
  [
    'test :smile: again :poop:\nx::y::z :wasted waste:',
    `<p>test ${smile} again <span aria-label="poop" class="emoji emoji-1f4a9" role="img" title="poop">:poop:</span><br>\nx::y::z :wasted waste:</p>`,
  ],
  [
    ':big_smile::heart:',
    '<p><span aria-label="big smile" class="emoji emoji-1f604" role="img" title="big smile">:big_smile:</span><span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span></p>',
  ],
  [
    ':thumbsup: :+1:',
    '<p><span aria-label="thumbsup" class="emoji emoji-1f44d" role="img" title="thumbsup">:thumbsup:</span> <span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>',
  ],
  [':foo:smile:', '<p>:foo:smile:</p>'],
  [':skin-tone-2:', '<p>:skin-tone-2:</p>'],
  ['🙂 ok', `<p>${smile} ok</p>`],
  [
    'I ❤️ it 🤷‍♀️',
    '<p>I <span aria-label="heart" class="emoji emoji-2764" role="img" title="heart">:heart:</span> it <span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span></p>',
  ],
  ['↔ stays', '<p>↔ stays</p>'],
  [
    ':teamchat:',
    '<p><img alt=":teamchat:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/teamchat.png" title="teamchat"></p>',
  ],
  ['`:smile: 🙂`', '<p><code>:smile: 🙂</code></p>'],
  ['**:smile:**', `<p><strong>${smile}</strong></p>`],
  // Without a context nothing realm-specific resolves; the syntax falls back to plain Markdown.
  [
    '@**King Hamlet** @_**King Hamlet** @**all**',
    '<p>@<strong>King Hamlet</strong> @_<strong>King Hamlet</strong> @<strong>all</strong></p>',
  ],
  ['@*backend*', '<p>@<em>backend</em></p>'],
  ['#**Denmark** #**core>testing**', '<p>#<strong>Denmark</strong> #<strong>core&gt;testing</strong></p>'],
  [':green_tick: #1234', '<p>:green_tick: #1234</p>'],
  ['/me waves', '<p>/me waves</p>'],
];

describe('renderMarkdown: the reference doc §4.20 cases', () => {
  it.each(REFERENCE)('%j', (input, html) => {
    expect(renderMarkdown(input)).toBe(html);
  });
});

describe('renderMarkdown: the reference doc §4.20 cases with realm data', () => {
  it.each(REFERENCE_WITH_REALM)('%j', (input, html) => {
    expect(renderMarkdown(input, as())).toBe(html);
  });
});

describe('renderMarkdown: the reference server conventions and service extensions', () => {
  it.each(EXTENSIONS)('%j', (input, html) => {
    expect(renderMarkdown(input)).toBe(html);
  });
});
