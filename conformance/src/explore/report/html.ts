import escape from 'escape-html';
import { EXPLORE_RULE_LIST, type ExploreFinding, type ExploreResult, type RanStep } from '../types.js';
import { compactEvent, EVENTS_SHOWN, plural, RULE_TEXT, type ExploreReportContext } from './text.js';

/**
 * explore.html: one self-contained file (inline CSS and script, nothing fetched), like conformance.html, so
 * CI publishes it as an artifact and it opens offline. Every value from the run goes through escape-html:
 * bodies and events are the target's words. Stable hooks for tests: #run[data-seed], #oracles
 * tr[data-rule][data-count], section.finding[data-rule][data-replayed], li.step[data-n], #stopped.
 */

/** A body or evidence shown in the page is cut after this many characters (explore.json keeps more). */
const BODY_LIMIT = 20_000;

const pretty = (value: unknown): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '');
  return text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}\n… (${text.length - BODY_LIMIT} more characters in explore.json)` : text;
};

export function renderExploreHtml(result: ExploreResult, context: ExploreReportContext = {}): string {
  const level = result.featureLevel === null ? 'unknown' : String(result.featureLevel);
  const verdict = result.findings.length > 0 ? 'failed' : result.stopped ? 'error' : 'passed';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Explore report: ${escape(result.target)}</title>
<style>${CSS}</style>
</head>
<body>
<header id="run" data-target="${escape(result.target)}" data-seed="${result.seed}" data-verdict="${verdict}">
<h1>Team Chat API conformance: explore${context.replayOf === undefined ? '' : ' (replay)'}</h1>
<dl class="meta">
<dt>Target</dt><dd><code>${escape(result.target)}</code> (${result.targetKind === 'mock' ? 'mock server with control API' : 'server'}), feature level ${escape(level)}</dd>
${context.replayOf === undefined ? '' : `<dt>Replay of</dt><dd><code>${escape(context.replayOf)}</code></dd>\n`}<dt>Seed</dt><dd><code>${result.seed}</code> (repeat this run with <code>--seed ${result.seed}</code>)</dd>
<dt>Tier</dt><dd>${escape(result.tiers.join(', '))}</dd>
<dt>Actors</dt><dd>${result.actors.map((a) => `${escape(a.name)}${a.legacy ? ' <span class="dim">(no client capabilities)</span>' : ''}`).join(', ')}</dd>
<dt>Started</dt><dd>${escape(result.startedAt)}</dd>
<dt>Run</dt><dd id="figures" data-steps="${result.steps}" data-steps-per-second="${result.stepsPerSecond}">${plural(result.sequences, 'sequence')}, ${plural(result.steps, 'step')} in ${(result.ms / 1000).toFixed(1)} s: <strong>${result.stepsPerSecond} steps/s</strong> (oracles included)</dd>
</dl>
<p><span class="badge ${verdict}">${result.findings.length > 0 ? `${result.findings.length} finding` : 'no finding'}</span></p>
${result.stopped ? `<p id="stopped" class="reason" data-kind="${result.stopped.kind}">${result.stopped.kind === 'not-started' ? 'The run could not start or broke off: ' : 'The run stopped: '}${escape(result.stopped.message)}</p>` : ''}
</header>
<main>
${result.findings.map((f, i) => findingHtml(f, i, result.target)).join('\n')}
<section><h2>Oracles</h2>
<table id="oracles"><thead><tr><th>Rule</th><th>What it checks</th><th>Held</th><th>Status</th></tr></thead><tbody>
${EXPLORE_RULE_LIST.map((rule) => {
  const failing = result.findings.some((f) => f.rule === rule);
  const n = result.oracles[rule] ?? 0;
  return `<tr data-rule="${rule}" data-count="${n}" class="${failing ? 'failed' : ''}"><td><code>${rule}</code></td><td>${escape(RULE_TEXT[rule] ?? '')}</td><td>${n}</td><td>${failing ? '<a href="#finding-0">finding</a>' : n > 0 ? 'held' : 'not checked'}</td></tr>`;
}).join('\n')}
</tbody></table></section>
<section><h2>Steps by kind</h2>
<table id="operations"><thead><tr><th>Kind</th><th>Steps</th></tr></thead><tbody>
${Object.entries(result.operations)
  .sort((a, b) => b[1] - a[1])
  .map(([kind, n]) => `<tr data-kind="${escape(kind)}"><td><code>${escape(kind)}</code></td><td>${n}</td></tr>`)
  .join('\n')}
</tbody></table></section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

function findingHtml(f: ExploreFinding, i: number, target: string): string {
  return `<section class="finding" id="finding-${i}" data-rule="${escape(f.rule)}" data-replayed="${f.replayed}">
<h2>Finding: <code>${escape(f.rule)}</code></h2>
<p class="message">${escape(f.message)}</p>
<dl class="meta">
${f.actor ? `<dt>Seen by</dt><dd>${escape(f.actor)}</dd>\n` : ''}<dt>Found</dt><dd>after ${plural(f.foundAfter, 'step')} (seed ${f.seed}); shrunk to ${plural(f.steps.length, 'step')}</dd>
<dt>Replayed</dt><dd class="${f.replayed ? 'failed' : 'dim'}">${f.replayed ? 'yes: the shrunk steps on a fresh world fail the same way' : 'no: the shrunk steps on a fresh world did not fail the same way (timing, or state outside the world)'}</dd>
<dt>Rerun</dt><dd><code>teamchat conform --explore --replay explore-finding.json --target ${escape(target)}</code> <span class="dim">(the script next to this report)</span></dd>
</dl>
<p class="dim">The curl lines use <code>$KEY_&lt;role&gt;</code>: the API key of that role's user in the world file.</p>
<ol class="steps">
${f.steps.map(stepHtml).join('\n')}
</ol>
${f.details === undefined ? '' : `<details class="evidence"><summary>Evidence</summary><pre>${escape(pretty(f.details))}</pre></details>`}
</section>`;
}

function stepHtml(r: RanStep): string {
  const x = r.exchange;
  const params = Object.entries(x.params);
  return `<li class="step" data-n="${r.n}" data-kind="${escape(r.step.kind)}" data-status-code="${x.status}">
<div class="line"><strong>${escape(r.step.actor)}</strong> <code>${escape(r.step.kind)}</code>: <strong>${escape(x.method)}</strong> <code>${escape(x.path)}</code> → <span class="code c${String(x.status)[0]}">${x.status}</span> <span class="dim">${x.ms} ms</span>${r.step.invalid ? ` <span class="invalid">wrong on purpose: ${escape(r.step.invalid.what)} (documented ${r.step.invalid.status} ${escape(r.step.invalid.code)})</span>` : ''}</div>
${params.length ? `<table class="params">${params.map(([k, v]) => `<tr><th>${escape(k)}</th><td><code>${escape(v)}</code></td></tr>`).join('')}</table>` : ''}
<div class="curl"><code>${escape(x.curl)}</code> <button type="button" class="copy">Copy</button></div>
<details><summary>Response</summary><pre>${escape(pretty(x.body))}</pre></details>
${eventsHtml(r)}
</li>`;
}

function eventsHtml(r: RanStep): string {
  const actors = Object.entries(r.events);
  if (actors.length === 0) return '<p class="events dim">No actor received an event.</p>';
  const omitted = (r as RanStep & { eventsOmitted?: Record<string, number> }).eventsOmitted ?? {};
  return `<ul class="events">${actors
    .map(([actor, list]) => {
      const more = list.length - EVENTS_SHOWN + (omitted[actor] ?? 0);
      const names = list.slice(0, EVENTS_SHOWN).map((e) => `<code>${escape(compactEvent(e))}</code>`);
      return `<li data-actor="${escape(actor)}"><strong>${escape(actor)}</strong>: ${names.join(', ')}${more > 0 ? ` <span class="dim">… ${more} more</span>` : ''}
<details><summary>events as received</summary><pre>${escape(pretty(list))}</pre></details></li>`;
    })
    .join('\n')}</ul>`;
}

const CSS = `
:root{--ok:#1a7f37;--bad:#cf222e;--err:#9a6700;--line:#d0d7de;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328}
body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem}
h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line)}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:#f6f8fa;border:1px solid var(--line);padding:.5rem;overflow:auto;max-height:24rem;margin:.2rem 0;white-space:pre-wrap;word-break:break-word}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
.badge{display:inline-block;border-radius:1rem;padding:0 .6rem;color:#fff;font-size:.8rem;font-weight:600}
.badge.passed{background:var(--ok)}.badge.failed{background:var(--bad)}.badge.error{background:var(--err)}
tr.failed td,dd.failed{color:var(--bad);font-weight:600}.dim{color:#656d76;font-size:.85rem}.reason{font-weight:600;color:var(--err)}
section.finding{border:1px solid var(--line);border-left:4px solid var(--bad);border-radius:4px;padding:.2rem .8rem;margin:1rem 0}
.message{font-weight:600;color:var(--bad)}.invalid{color:var(--err);font-size:.85rem}
ol.steps>li{margin:.5rem 0;padding:.3rem;border-top:1px dashed var(--line)}ol.steps>li:last-child{border-left:3px solid var(--bad);background:#fff5f5}
table.params{width:auto}.code.c2{color:var(--ok)}.code.c4,.code.c5{color:var(--bad)}
.curl{display:flex;gap:.5rem;align-items:flex-start}.curl code{flex:1;background:#f6f8fa;padding:.3rem;word-break:break-all}
ul.events{margin:.2rem 0;padding-left:1.2rem}
`;

const SCRIPT = `
(function () {
  function fallbackCopy(text) {
    var t = document.createElement('textarea'); t.value = text; document.body.appendChild(t); t.select();
    try { document.execCommand('copy'); } finally { document.body.removeChild(t); }
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button.copy');
    if (!b) return;
    var text = b.parentNode.querySelector('code').textContent;
    var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy'; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
    else { fallbackCopy(text); done(); }
  });
})();
`;
