import { parseTemplate, type Template } from 'url-template';

/**
 * RFC 6570 URL templates of linkifiers (spec §2.11): validation and the variable names, which
 * `url-template` (used to expand them) does not offer; it expands anything, even `{id`.
 *
 * Validation follows the reference server's template validator: only the expressions are checked,
 * literal text is free (`$not_a_url$`, `https://example.com/%%` are valid). An expression is
 * `{` [operator] varspec *("," varspec) `}` with operator one of `+ # . / ; ? &` (the reserved
 * `= , ! @ |` are invalid), varspec = varname [`:` 1–9999 | `*`], varname = varchar *(["."] varchar),
 * varchar = ALPHA / DIGIT / "_" / pct-encoded. A `{` without its `}`, a `{` inside an expression or a
 * `}` outside one is invalid (`{id`, `{{}`, `{//foo}`, `{bar++}` are the reference's invalid examples).
 */

const VARCHAR = '(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})';
const VARSPEC = new RegExp(`^(${VARCHAR}(?:\\.?${VARCHAR})*)(?::[1-9][0-9]{0,3}|\\*)?$`);
const OPERATORS = '+#./;?&';

/** The template's variable names, or null when the template is not valid RFC 6570. */
export function templateVariables(template: string): string[] | null {
  const names: string[] = [];
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf('{', pos);
    const strayClose = template.indexOf('}', pos);
    if (strayClose !== -1 && (open === -1 || strayClose < open)) return null;
    if (open === -1) break;
    const close = template.indexOf('}', open + 1);
    if (close === -1) return null;
    let body = template.slice(open + 1, close);
    if (body.includes('{')) return null;
    if (body !== '' && OPERATORS.includes(body[0]!)) body = body.slice(1);
    if (body === '') return null;
    for (const spec of body.split(',')) {
      const m = VARSPEC.exec(spec);
      if (!m) return null;
      names.push(m[1]!);
    }
    pos = close + 1;
  }
  return names;
}

export function isValidTemplate(template: string): boolean {
  return templateVariables(template) !== null;
}

const parsed = new Map<string, Template>();

/** Expands a (valid) template with the match's groups; unmatched groups are left undefined. */
export function expandTemplate(template: string, values: Record<string, string>): string {
  let t = parsed.get(template);
  if (!t) {
    if (parsed.size > 1000) parsed.clear();
    t = parseTemplate(template);
    parsed.set(template, t);
  }
  return t.expand(values);
}
