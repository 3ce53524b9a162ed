import { createRequire } from 'node:module';
import type { HLJSApi } from 'highlight.js';
import { escapeCode } from './escape.js';

/**
 * Syntax highlighting of fenced code (reference §4.20: "highlighting spans"). The reference server uses
 * Pygments, whose HTML is flat `<span class="k">def</span>` with short class names; highlight.js
 * produces nested `hljs-*` scopes. We highlight with highlight.js and translate its scopes to the
 * Pygments names (SCOPES below), flattening nesting: each piece of text takes the class of its nearest
 * translated scope, untranslated scopes (`params`, `tag`, …) leave their text unwrapped, whitespace-only
 * pieces and newlines stay outside spans (Pygments splits its spans at line ends). The token boundaries
 * of the two highlighters differ (Pygments also marks names `n`, operators `o` and punctuation `p`,
 * which highlight.js leaves unscoped in most grammars), so the spans approximate the reference server's.
 *
 * `data-code-language` is the Pygments lexer's name for the language ("Python" for `py`); an unknown
 * language keeps the name as given and gets no spans (reference: `inventedlanguage`).
 */

/** highlight.js scope → Pygments short class; functions refine by the token's text. */
const SCOPES: Record<string, string | ((text: string, sub: string) => string | null)> = {
  keyword: 'k', // Keyword
  built_in: 'nb', // Name.Builtin
  type: 'kt', // Keyword.Type
  literal: 'kc', // Keyword.Constant (True, null, …)
  number: numberClass, // Number: mi / mf / mh / mo / mb, else m
  string: stringClass, // String: s2 "…", s1 '…', sb `…`, else s
  comment: commentClass, // Comment: ch #!…, c1 single-line, cm multi-line, else c
  doctag: 'cs', // Comment.Special
  meta: 'cp', // Comment.Preproc (decorators, #include, shebang-like meta)
  title: (_text, sub) => (sub.includes('class_') || sub.includes('inherited__') ? 'nc' : sub.includes('invoke__') ? 'n' : 'nf'), // Name.Class / Name / Name.Function
  variable: (_text, sub) => (sub.includes('language_') ? 'bp' : sub.includes('constant_') ? 'no' : 'nv'), // Name.Builtin.Pseudo (self, this) / Name.Constant / Name.Variable
  'template-variable': 'nv',
  attr: 'na', // Name.Attribute
  attribute: 'na',
  property: 'na',
  symbol: 'ss', // String.Symbol
  regexp: 'sr', // String.Regex
  subst: 'si', // String.Interpol
  char: (_text, sub) => (sub.includes('escape_') ? 'se' : 'sc'), // String.Escape / String.Char
  operator: 'o', // Operator
  punctuation: 'p', // Punctuation
  name: 'nt', // Name.Tag (inside a markup tag)
  'selector-tag': 'nt',
  'selector-class': 'nc',
  'selector-id': 'nn',
  'selector-attr': 'na',
  'selector-pseudo': 'nd',
  section: 'gh', // Generic.Heading
  emphasis: 'ge', // Generic.Emph
  strong: 'gs', // Generic.Strong
  addition: 'gi', // Generic.Inserted
  deletion: 'gd', // Generic.Deleted
};

function numberClass(text: string): string {
  if (/^0x/i.test(text)) return 'mh';
  if (/^0o/i.test(text)) return 'mo';
  if (/^0b/i.test(text)) return 'mb';
  if (/^[0-9_]+[lLuU]*$/.test(text)) return 'mi';
  if (/^[0-9_]*\.?[0-9_]*([eE][-+]?[0-9]+)?[fFdD]?$/.test(text)) return 'mf';
  return 'm';
}

function stringClass(text: string): string {
  if (text.startsWith('&quot;')) return 's2';
  if (text.startsWith('&#x27;')) return 's1';
  if (text.startsWith('`')) return 'sb';
  return 's';
}

function commentClass(text: string): string {
  if (text.startsWith('#!')) return 'ch';
  if (text.startsWith('/*')) return 'cm';
  if (/^(#|\/\/|--|;|%)/.test(text)) return 'c1';
  return 'c';
}

/**
 * Language aliases whose Pygments name differs from highlight.js's, or that highlight.js does not know
 * (`py2`): the grammar to use and the name for `data-code-language`.
 */
const ALIASES: Record<string, { grammar: string | null; name: string }> = {
  py2: { grammar: 'python', name: 'Python 2.x' },
  python2: { grammar: 'python', name: 'Python 2.x' },
  py3: { grammar: 'python', name: 'Python' },
  tex: { grammar: 'latex', name: 'TeX' },
  latex: { grammar: 'latex', name: 'TeX' },
  sh: { grammar: 'bash', name: 'Bash' },
  shell: { grammar: 'bash', name: 'Bash' },
  zsh: { grammar: 'bash', name: 'Bash' },
  console: { grammar: 'shell', name: 'Bash Session' },
  html: { grammar: 'xml', name: 'HTML' },
  xml: { grammar: 'xml', name: 'XML' },
  text: { grammar: null, name: 'Text only' },
  txt: { grammar: null, name: 'Text only' },
  plaintext: { grammar: null, name: 'Text only' },
  pycon: { grammar: 'python-repl', name: 'Python console session' },
  dockerfile: { grammar: 'dockerfile', name: 'Docker' },
  docker: { grammar: 'dockerfile', name: 'Docker' },
  ini: { grammar: 'ini', name: 'INI' },
  toml: { grammar: 'ini', name: 'TOML' },
};

/** highlight.js language names (reached through its own aliases) → Pygments names. */
const NAMES: Record<string, string> = {
  'HTML, XML': 'XML',
  LaTeX: 'TeX',
  'Shell Session': 'Bash Session',
  'Python REPL': 'Python console session',
  'Plain text': 'Text only',
  'TOML, also INI': 'INI',
  Dockerfile: 'Docker',
};

let common: HLJSApi | null = null;
let every: HLJSApi | null = null;
const require = createRequire(import.meta.url);

/**
 * The highlighter that knows a language, and the language's name there. highlight.js's common bundle (about 40
 * languages) is loaded on the first highlighted block, never at start-up; its full bundle (every language) on the
 * first block in a rarer one. Both are required by name, so the build bundles them (tools/build.ts: the full one
 * as a file of its own, read only then) and the installed package needs no highlight.js.
 */
function grammar(language: string): { hljs: HLJSApi; name: string } | null {
  common ??= require('highlight.js/lib/common') as HLJSApi;
  if (common.getLanguage(language)) return { hljs: common, name: language };
  if (!/^[a-z0-9-]+$/.test(language)) return null;
  every ??= require('highlight.js') as HLJSApi;
  return every.getLanguage(language) ? { hljs: every, name: language } : null;
}

export interface Highlighted {
  languageName: string;
  html: string;
}

/** Highlighted HTML for known languages; null for unknown ones (plain escaped code, name as given). */
export function highlightCode(code: string, language: string): Highlighted | null {
  const key = language.toLowerCase();
  const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
  if (alias && alias.grammar === null) return { languageName: alias.name, html: escapeCode(code) };
  const found = grammar(alias?.grammar ?? key);
  if (found === null) return null;
  const { hljs, name } = found;
  let value: string;
  try {
    value = hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return null; // a grammar that trips over odd input: plain code rather than a failed request
  }
  const hljsName = hljs.getLanguage(name)?.name ?? language;
  return { languageName: alias?.name ?? (Object.hasOwn(NAMES, hljsName) ? NAMES[hljsName]! : hljsName), html: toPygments(value) };
}

interface ScopeNode {
  scope: string;
  children: (string | ScopeNode)[];
}

/** highlight.js HTML (spans and escaped text only) → a tree of scopes. */
function parse(html: string): ScopeNode {
  const root: ScopeNode = { scope: '', children: [] };
  const stack = [root];
  for (const m of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) {
      const node: ScopeNode = { scope: m[1], children: [] };
      top.children.push(node);
      stack.push(node);
    } else if (m[0] === '</span>') {
      if (stack.length > 1) stack.pop();
    } else top.children.push(m[0]);
  }
  return root;
}

const textOf = (node: ScopeNode): string => node.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');

function pygmentsClass(node: ScopeNode): string | null {
  const [first = '', ...rest] = node.scope.split(/\s+/);
  const scope = first.replace(/^hljs-/, '');
  const rule = Object.hasOwn(SCOPES, scope) ? SCOPES[scope] : undefined;
  if (rule === undefined) return null;
  return typeof rule === 'string' ? rule : rule(textOf(node), rest.join(' '));
}

function toPygments(html: string): string {
  const pieces: { cls: string | null; text: string }[] = [];
  const walk = (node: ScopeNode, inherited: string | null): void => {
    const cls = node.scope ? (pygmentsClass(node) ?? inherited) : inherited;
    for (const child of node.children) {
      if (typeof child !== 'string') walk(child, cls);
      else if (pieces.length > 0 && pieces[pieces.length - 1]!.cls === cls) pieces[pieces.length - 1]!.text += child;
      else pieces.push({ cls, text: child });
    }
  };
  walk(parse(html), null);
  return pieces
    .map(({ cls, text }) => {
      const escaped = text.replace(/&#x27;/g, '&#39;');
      if (cls === null) return escaped;
      // One span per line, and whitespace-only runs outside any span, as Pygments writes them.
      return escaped
        .split('\n')
        .map((line) =>
          line.replace(/^(\s*)(.*?)(\s*)$/, (_m, lead: string, body: string, tail: string) =>
            body ? `${lead}<span class="${cls}">${body}</span>${tail}` : lead + tail,
          ),
        )
        .join('\n');
    })
    .join('');
}
