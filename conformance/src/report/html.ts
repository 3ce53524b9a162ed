import escape from 'escape-html';
import { sectionTitle } from '../catalogue.js';
import type { Check, Exchange, RuleCoverage, RunResult, ScenarioResult, ScenarioStatus, Source } from '../model.js';
import { sourceLabel } from '../provenance.js';
import { findingsHtml } from './html-findings.js';
import { areasOf, bySection, coverageOf, failuresFirst, formatCoverage, isCovered, tierLabel, percent, type Coverage } from './json.js';

/**
 * The HTML report: one self-contained file (inline CSS and script, nothing fetched), so CI can publish it
 * as an artifact and it opens offline. Everything is rendered here; the script only filters, expands and
 * copies. Every value from the run goes through escape-html: response bodies are the target's words.
 * Stable hooks for browser tests: #filter, input[data-status-filter], #expand-all, #collapse-all,
 * #shown-count, details[data-scenario-id][data-status], #rules-table tr[data-rule-id][data-covered].
 */

const STATUSES: ScenarioStatus[] = ['failed', 'error', 'passed', 'skipped'];
/** Register answers hold a whole realm: the HTML shows the start, report.json keeps everything. */
const BODY_LIMIT = 20_000;

export function renderHtml(run: RunResult): string {
  // First: it marks every failed check with its finding, which the scenarios below link to.
  const findings = findingsHtml(run);
  const cov = coverageOf(run.rules);
  const index = new Map(run.scenarios.map((s, i) => [s, i]));
  const level = run.featureLevel === null ? 'unknown' : String(run.featureLevel);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report: ${escape(run.target)}</title>
<style>${CSS}</style>
</head>
<body>
<header id="run" data-target="${escape(run.target)}" data-feature-level="${escape(level)}" data-target-kind="${run.targetKind}">
<h1>Team Chat API conformance</h1>
<dl class="meta">
<dt>Target</dt><dd><code>${escape(run.target)}</code> (${run.targetKind === 'mock' ? 'mock server with control API' : 'server'})</dd>
<dt>Feature level</dt><dd>${escape(level)}</dd>
<dt>Tier</dt><dd id="tier" data-tier="${escape(tierLabel(run))}">${escape(tierLabel(run))}</dd>
<dt>Reference-only checks</dt><dd id="strict-reference" data-strict="${run.strictReference === true}" data-warnings="${run.warnings?.checks ?? 0}">${run.strictReference ? 'fail their scenario (--strict-reference)' : `warnings, not counted${run.warnings ? `: ${plural(run.warnings.checks, 'failed check')} in ${plural(run.warnings.scenarios, 'scenario')}` : ''}`}</dd>
<dt>Started</dt><dd>${escape(run.startedAt)}</dd>
<dt>Duration</dt><dd>${(run.ms / 1000).toFixed(1)} s</dd>
${run.seed === undefined ? '' : `<dt>Order</dt><dd id="seed" data-seed="${run.seed}">shuffled with seed ${run.seed} (repeat it with <code>--seed ${run.seed}</code>)</dd>\n`}</dl>
<p id="totals">${STATUSES.map((s) => `<span class="badge ${s}" data-total="${s}">${run.totals[s]} ${s}</span>`).join(' ')}
<span class="count">${run.scenarios.length} scenarios</span> · rule coverage <strong id="coverage" data-covered="${cov.covered}" data-total="${cov.total}">${formatCoverage(cov)}</strong></p>
${run.stopped ? `<p id="stopped" class="reason" data-kind="${run.stopped.kind}">${run.stopped.kind === 'not-started' ? 'The run could not start: ' : 'The run stopped: '}${escape(run.stopped.message)}</p>` : ''}
</header>
<main>
${findings}
<section id="areas"><h2>By area</h2>
<table><thead><tr><th>Area</th><th>Scenarios</th>${STATUSES.map((s) => `<th>${s}</th>`).join('')}<th>Time</th></tr></thead><tbody>
${areasOf(run.scenarios)
  .map(
    (a) =>
      `<tr data-area="${escape(a.area)}"><td><a href="#scenarios" data-set-filter="${escape(`${a.area}/`)}">${escape(a.area)}</a></td><td>${a.tests}</td>${STATUSES.map((s) => `<td class="${a.totals[s] ? s : 'zero'}">${a.totals[s]}</td>`).join('')}<td>${(a.ms / 1000).toFixed(2)} s</td></tr>`,
  )
  .join('\n')}
</tbody></table></section>
<section id="sections"><h2>Rule coverage by spec section</h2>
<p class="note">A rule is covered when at least one passing scenario checks it.</p>
<table><thead><tr><th>Section</th><th>Covered</th><th></th><th>Failing rules</th></tr></thead><tbody>
${cov.sections.map((s) => `<tr data-section="${escape(s.section)}" data-covered="${s.covered}" data-total="${s.total}"><td>§${escape(s.section)} <span class="dim">${escape(sectionTitle(s.section) ?? '')}</span></td><td>${formatCoverage(s)}</td><td>${bar(s)}</td><td class="${s.failing ? 'failed' : 'zero'}">${s.failing}</td></tr>`).join('\n')}
<tr class="overall" data-section="all" data-covered="${cov.covered}" data-total="${cov.total}"><td>All sections</td><td>${formatCoverage(cov)}</td><td>${bar(cov)}</td><td>${cov.sections.reduce((n, s) => n + s.failing, 0)}</td></tr>
</tbody></table></section>
<section id="scenarios"><h2>Scenarios</h2>
<div id="controls">
<input id="filter" type="search" placeholder="Filter by ID, title or rule" aria-label="Filter scenarios by ID, title or rule">
${STATUSES.map((s) => `<label class="${s}"><input type="checkbox" id="status-${s}" data-status-filter="${s}" checked> ${s} (${run.totals[s]})</label>`).join('\n')}
<button type="button" id="expand-all">Expand all</button> <button type="button" id="collapse-all">Collapse all</button>
<span id="shown-count">${run.scenarios.length} of ${run.scenarios.length} scenarios shown</span>
</div>
<div id="scenario-list">
${failuresFirst(run.scenarios)
  .map((s) => scenarioHtml(s, index.get(s)!))
  .join('\n')}
</div></section>
<section id="rules"><h2>Rules</h2>
<label><input type="checkbox" id="uncovered-only"> only rules not covered</label>
<table id="rules-table"><thead><tr><th>Rule</th><th>Section</th><th>Statement</th><th>Status</th><th>Passing scenarios</th><th>Failing scenarios</th></tr></thead><tbody>
${rulesHtml(run)}
</tbody></table></section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function scenarioHtml(s: ScenarioResult, i: number): string {
  const search = [s.id, s.title, ...s.rules, ...s.tags].join(' ').toLowerCase();
  const failing = s.checks.filter((c) => !c.ok && !c.warning).length;
  const warnings = s.checks.filter((c) => c.warning).length;
  // The requests a failing check points at get a mark, so the reader finds the wrong answer at once.
  const flagged = new Set(s.checks.filter((c) => !c.ok && c.exchange !== undefined).map((c) => c.exchange));
  return `<details class="scenario ${s.status}" id="s-${i}" data-scenario-id="${escape(s.id)}" data-status="${s.status}" data-area="${escape(s.area)}" data-rules="${escape(s.rules.join(' '))}" data-search="${escape(search)}">
<summary><span class="badge ${s.status}">${s.status}</span> <code>${escape(s.id)}</code> ${escape(s.title)} <span class="dim">${plural(s.checks.length, 'check')}${failing ? `, ${failing} failing` : ''}${warnings ? `, ${plural(warnings, 'warning')}` : ''} · ${plural(s.exchanges.length, 'request')} · ${s.ms} ms</span></summary>
<div class="detail">
${s.reason ? `<p class="reason">${escape(s.reason)}</p>` : ''}
${s.findings?.length ? `<p class="findings">Findings: ${s.findings.map((id) => `<a href="#finding-${escape(id)}">${escape(id)}</a>`).join(' ')}</p>` : ''}
<p class="rules">Rules: ${s.rules.map((r) => `<a href="#rule-${escape(r)}" class="rule">${escape(r)}</a>`).join(' ') || '<em>none</em>'}${s.tags.length ? ` · tags: ${s.tags.map((t) => `<span class="tag">${escape(t)}</span>`).join(' ')}` : ''}</p>
${s.checks.length ? `<h3>Checks</h3><ul class="checks">${s.checks.map((c) => checkHtml(c, i)).join('')}</ul>` : ''}
${s.exchanges.length ? `<h3>Requests</h3><ol class="exchanges" start="0">${s.exchanges.map((x, n) => exchangeHtml(x, i, n, flagged.has(n))).join('\n')}</ol>` : ''}
</div>
</details>`;
}

function checkHtml(c: Check, i: number): string {
  const rule = c.rule ? `<a href="#rule-${escape(c.rule)}" class="rule">${escape(c.rule)}</a> ` : '';
  const at = c.exchange === undefined ? '' : ` <a href="#x-${i}-${c.exchange}" class="dim">(request #${c.exchange})</a>`;
  const kind = c.ok ? 'ok' : c.warning ? 'warn' : 'fail';
  const finding = c.finding ? ` <a href="#finding-${escape(c.finding)}" class="finding-ref">${escape(c.finding)}</a>` : '';
  return `<li class="check ${kind}" data-ok="${c.ok}"><span class="mark">${c.ok ? '✓' : c.warning ? '!' : '✗'}</span> ${rule}${escape(c.message)}${at}${finding} ${sourceBadge(c.source)}</li>`;
}

/** "spec §4.12" or "reference add-reaction, level 193", linked to the reference page when there is one. */
function sourceBadge(source: Source | undefined): string {
  if (!source) return '';
  const label = escape(sourceLabel(source));
  const attrs = `class="source ${source.kind}" data-source="${source.kind}"`;
  return source.kind === 'reference' && source.url
    ? `<a ${attrs} href="${escape(source.url)}">${label}</a>`
    : `<span ${attrs}>${label}</span>`;
}

function exchangeHtml(x: Exchange, i: number, n: number, flagged: boolean): string {
  const params = Object.entries(x.params);
  const body = typeof x.body === 'string' ? x.body : (JSON.stringify(x.body, null, 2) ?? '');
  const shown =
    body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}\n… (${body.length - BODY_LIMIT} more characters in report.json)` : body;
  return `<li class="exchange${flagged ? ' flagged' : ''}" id="x-${i}-${n}" data-status-code="${x.status}" data-flagged="${flagged}">
<div class="line"><strong>${escape(x.method)}</strong> <code>${escape(x.path)}</code> <span class="dim">as ${escape(x.as ?? 'nobody')}</span> → <span class="code c${String(x.status)[0]}">${x.status}</span> <span class="dim">${x.ms} ms</span></div>
${params.length ? `<div class="params"><span class="label">Parameters</span><table>${params.map(([k, v]) => `<tr><th>${escape(k)}</th><td><code>${escape(v)}</code></td></tr>`).join('')}</table></div>` : ''}
<div class="response"><span class="label">Response</span><pre>${escape(shown)}</pre></div>
<div class="curl"><code>${escape(x.curl)}</code> <button type="button" class="copy">Copy</button></div>
</li>`;
}

function rulesHtml(run: RunResult): string {
  const rows = [...run.rules].sort((a, b) => bySection(a.section, b.section) || bySection(a.id, b.id));
  const ids = new Map(run.scenarios.map((s, i) => [s.id, i]));
  const links = (list: string[]) => list.map((id) => `<a href="#s-${ids.get(id) ?? ''}">${escape(id)}</a>`).join('<br>');
  const state = (r: RuleCoverage) =>
    isCovered(r) ? (r.failed.length ? 'covered, also failing' : 'covered') : r.failed.length ? 'failing' : 'not covered';
  return rows
    .map(
      (r) =>
        `<tr id="rule-${escape(r.id)}" data-rule-id="${escape(r.id)}" data-covered="${isCovered(r)}" class="${isCovered(r) ? 'covered' : 'uncovered'}${r.failed.length ? ' failing' : ''}"><td><code>${escape(r.id)}</code></td><td>${escape(r.section)}</td><td>${escape(r.text)} ${sourceBadge(r.source)}</td><td>${state(r)}</td><td>${links(r.passed)}</td><td>${links(r.failed)}</td></tr>`,
    )
    .join('\n');
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const bar = (c: Coverage): string => `<span class="bar"><span style="width:${percent(c)}%"></span></span>`;

const CSS = `
:root{--ok:#1a7f37;--bad:#cf222e;--err:#9a6700;--skip:#6e7781;--line:#d0d7de;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line)}h3{font-size:.95rem;margin:.6rem 0 .3rem}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);padding:.5rem;overflow:auto;max-height:24rem;margin:.2rem 0;white-space:pre-wrap;word-break:break-word}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;color:#fff;font-size:.8rem;font-weight:600}
.badge.passed{background:var(--ok)}.badge.failed{background:var(--bad)}.badge.error{background:var(--err)}.badge.skipped{background:var(--skip)}
td.failed,label.failed{color:var(--bad);font-weight:600}td.error,label.error{color:var(--err);font-weight:600}td.passed{color:var(--ok)}td.zero{color:#aaa}
.bar{display:inline-block;width:10rem;height:.6rem;background:#eee;border-radius:.3rem;overflow:hidden}.bar span{display:block;height:100%;background:var(--ok)}
#controls{position:sticky;top:0;background:#fff;padding:.5rem 0;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;z-index:1;border-bottom:1px solid var(--line)}
#filter{flex:1 1 18rem;padding:.3rem .5rem}
details.scenario{border:1px solid var(--line);border-left:4px solid var(--skip);border-radius:4px;margin:.35rem 0;padding:.2rem .6rem}
details.scenario.passed{border-left-color:var(--ok)}details.scenario.failed{border-left-color:var(--bad)}details.scenario.error{border-left-color:var(--err)}
summary{cursor:pointer}.dim{color:#656d76;font-size:.85rem}.reason{font-weight:600}
ul.checks{list-style:none;padding-left:.2rem}.check.ok .mark{color:var(--ok)}.check.fail{color:var(--bad)}.check.warn{color:var(--err)}
.source{border:1px solid var(--line);border-radius:.3rem;padding:0 .3rem;font-size:.75rem;color:#656d76;white-space:nowrap}.source.reference{border-style:dashed}
ol.exchanges>li{margin:.5rem 0;padding:.3rem;border-top:1px dashed var(--line)}ol.exchanges>li.flagged{border-left:3px solid var(--bad);background:#fff5f5}.label{font-size:.8rem;font-weight:600;color:#656d76}
.params table{width:auto}.code.c2{color:var(--ok)}.code.c4,.code.c5{color:var(--bad)}
.curl{display:flex;gap:.5rem;align-items:flex-start}.curl code{flex:1;background:#f6f8fa;padding:.3rem;word-break:break-all}
li.finding{margin:.5rem 0}li.finding.schema{border-left:3px solid var(--bad);padding-left:.4rem}
#rules-table tr.uncovered td:nth-child(4){color:var(--bad)}#rules-table tr.failing td:nth-child(4){color:var(--err)}
[hidden]{display:none!important}
`;

const SCRIPT = `
(function () {
  var list = Array.prototype.slice.call(document.querySelectorAll('details.scenario'));
  var filter = document.getElementById('filter');
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input[data-status-filter]'));
  var shown = document.getElementById('shown-count');
  function apply() {
    var q = filter.value.trim().toLowerCase();
    var on = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.getAttribute('data-status-filter'); });
    var n = 0;
    list.forEach(function (el) {
      var ok = on.indexOf(el.getAttribute('data-status')) >= 0 && (!q || el.getAttribute('data-search').indexOf(q) >= 0);
      el.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n + ' of ' + list.length + ' scenarios shown';
  }
  filter.addEventListener('input', apply);
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  document.getElementById('expand-all').addEventListener('click', function () { list.forEach(function (el) { if (!el.hidden) el.open = true; }); });
  document.getElementById('collapse-all').addEventListener('click', function () { list.forEach(function (el) { el.open = false; }); });
  function fallbackCopy(text) {
    var t = document.createElement('textarea'); t.value = text; document.body.appendChild(t); t.select();
    try { document.execCommand('copy'); } finally { document.body.removeChild(t); }
  }
  document.addEventListener('click', function (e) {
    var link = e.target.closest && e.target.closest('[data-set-filter]');
    if (link) { filter.value = link.getAttribute('data-set-filter'); apply(); }
    var b = e.target.closest && e.target.closest('button.copy');
    if (!b) return;
    var text = b.parentNode.querySelector('code').textContent;
    var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy'; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
    else { fallbackCopy(text); done(); }
  });
  function openTarget() {
    var el = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    var d = el && el.closest ? el.closest('details.scenario') : null;
    if (d) { d.hidden = false; d.open = true; el.scrollIntoView(); }
  }
  window.addEventListener('hashchange', openTarget);
  var uncovered = document.getElementById('uncovered-only');
  uncovered.addEventListener('change', function () {
    document.querySelectorAll('#rules-table tbody tr').forEach(function (tr) { tr.hidden = uncovered.checked && tr.getAttribute('data-covered') === 'true'; });
  });
  apply();
  openTarget();
})();
`;
