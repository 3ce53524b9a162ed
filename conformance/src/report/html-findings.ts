import escape from 'escape-html';
import { failingRules, findingsOfRun } from '../findings.js';
import type { Finding, RunResult } from '../model.js';
import { sourceLabel } from '../provenance.js';

/**
 * The HTML report's first section: the failing rules, then the findings (one per cause, with the
 * scenarios it broke and one request to reproduce it), then what each key variable of the curl lines
 * stands for. Every value from the run goes through escape-html. Stable hooks for tests:
 * #failing-rules tr[data-rule], #finding-list li[data-finding-id][data-scenarios], #key-variables li[data-variable].
 */
export function findingsHtml(run: RunResult): string {
  const findings = findingsOfRun(run);
  if (findings.length === 0) return '';
  const rules = failingRules(run.scenarios, run.rules);
  const ids = new Map(run.scenarios.map((s, i) => [s.id, i]));
  return `<section id="findings"><h2>Failing rules and findings</h2>
<table id="failing-rules"><thead><tr><th>Rule</th><th>Scenarios</th><th>Findings</th><th>Statement</th></tr></thead><tbody>
${rules
  .map(
    (r) =>
      `<tr data-rule="${escape(r.rule ?? '')}"><td>${r.rule === null ? '<em>no rule</em>' : `<a href="#rule-${escape(r.rule)}" class="rule">${escape(r.rule)}</a>`}</td><td>${r.scenarios}</td><td>${r.findings.map(link).join(' ')}</td><td>${escape(r.text ?? (r.rule === null ? 'answers against the response schemas, server errors' : ''))}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
<ol id="finding-list">
${findings.map((f) => findingHtml(f, ids)).join('\n')}
</ol>
${keysHtml(run)}</section>`;
}

const link = (id: string): string => `<a href="#finding-${escape(id)}">${escape(id)}</a>`;

function findingHtml(f: Finding, ids: Map<string, number>): string {
  const scenarios = f.scenarios.map((id) => `<a href="#s-${ids.get(id) ?? ''}">${escape(id)}</a>`).join(' ');
  return `<li class="finding ${f.kind}" id="finding-${escape(f.id)}" data-finding-id="${escape(f.id)}" data-kind="${f.kind}" data-scenarios="${f.scenarios.length}">
<div><strong>${escape(f.id)}</strong> ${f.rule ? `<a href="#rule-${escape(f.rule)}" class="rule">${escape(f.rule)}</a> ` : ''}${escape(f.title)}${f.source ? ` <span class="source ${f.source.kind}" data-source="${f.source.kind}">${escape(sourceLabel(f.source))}</span>` : ''}</div>
<div class="dim">${f.scenarios.length} scenario(s), ${f.checks} failed check(s)${f.operations.length ? ` · in ${escape(f.operations.join(', '))}` : ''}</div>
<div class="dim">e.g. ${escape(f.example.request ?? f.example.message)} in <code>${escape(f.example.scenario)}</code></div>
${f.example.curl ? `<div class="curl"><code>${escape(f.example.curl)}</code> <button type="button" class="copy">Copy</button></div>` : ''}
<details><summary>${f.scenarios.length} scenario(s)</summary>${scenarios}</details>
</li>`;
}

function keysHtml(run: RunResult): string {
  if (!run.keys?.length) return '';
  return `<div id="key-variables"><p>The curl lines take each user's API key from a variable (never the key itself):</p><ul>
${run.keys.map((k) => `<li data-variable="${escape(k.variable)}"><code>$${escape(k.variable)}</code>: ${escape(k.role)} (${escape(k.emails.join(', '))})</li>`).join('\n')}
</ul></div>`;
}
