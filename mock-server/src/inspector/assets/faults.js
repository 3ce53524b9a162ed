// A realm's fault rules on the inspector page (docs/inspector.md "Fault rules"): the rules as the feed pushes them
// (inspector/state.ts, with their applied/remaining counts), a form that adds one through the control API
// (POST /__mock/realms/{id}/faults), a remove button per rule and "remove all". Rule fields are whatever a client of
// the control API sent: they are set as text only, like everything else on the page.
//
// The panel element of a realm is made once and moved into each redraw of the realms column: the form keeps what
// is typed, which effect is chosen and its focus across the feed's pushes (a rule's counts change on every request
// it applies to, so the column is redrawn often while a rule is at work).
import { action, control, h } from './common.js';

const panels = new Map();

export const PRESETS = ['rate_limit', 'server_error', 'bad_gateway', 'service_unavailable'];
const WIRE = ['reset', 'close', 'truncate', 'garbage'];
const EFFECTS = [...PRESETS, 'error', 'latency', 'trickle', ...WIRE];
const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest'];
const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];

/** The panel of this realm, its rule list brought up to date with the pushed rules. */
export function faultsPanel(realm) {
  let panel = panels.get(realm.realm_id);
  if (!panel) {
    panel = makePanel(realm.realm_id);
    panels.set(realm.realm_id, panel);
  }
  panel.update(realm.faults);
  return panel.element;
}

/** Frees the panels of realms that are gone (deleted through the control API). */
export function keepPanels(realmIds) {
  for (const id of panels.keys()) if (!realmIds.includes(id)) panels.delete(id);
}

// The document's operations, asked for once (GET /__inspector/operations) and offered by the form's inputs.
const operationList = h('datalist', { id: 'fault-operations' });
const pathList = h('datalist', { id: 'fault-paths' });
let operationsAsked = false;
async function loadOperations() {
  if (operationsAsked) return;
  operationsAsked = true;
  document.body.append(operationList, pathList);
  try {
    const res = await fetch('/__inspector/operations', { credentials: 'same-origin' });
    const { operations = [] } = await res.json();
    operationList.replaceChildren(...operations.map((o) => h('option', { value: o.operation }, `${o.method} ${o.path}`)));
    pathList.replaceChildren(...[...new Set(operations.map((o) => o.path))].map((path) => h('option', { value: path })));
  } catch {
    // The inputs still take any text; the server checks it.
    operationsAsked = false;
  }
}

function makePanel(realmId) {
  const count = h('span', {}, '');
  const list = h('div', { dataset: { testid: `faults-list-${realmId}` } });
  const form = ruleForm(realmId);
  const element = h(
    'details',
    { class: 'faults', dataset: { testid: `faults-${realmId}` } },
    h('summary', {}, 'Fault rules', count),
    list,
    form,
  );
  element.addEventListener('toggle', () => element.open && void loadOperations());
  let drawn = null;
  return {
    element,
    update(rules) {
      const text = JSON.stringify(rules ?? null);
      if (text === drawn) return;
      drawn = text;
      count.textContent = rules ? ` (${rules.length})` : '';
      list.replaceChildren(...ruleList(realmId, rules));
    },
  };
}

function ruleList(realmId, rules) {
  if (!rules) return [h('p', { class: 'muted' }, 'This server does not report fault rules.')];
  if (rules.length === 0) return [h('p', { class: 'muted' }, 'No fault rules: every answer is the API’s own.')];
  const remove = (rule) =>
    h(
      'button',
      {
        type: 'button',
        title: `remove rule ${rule.id}`,
        dataset: { testid: `fault-remove-${realmId}-${rule.id}` },
        onclick: action(realmId, async () => {
          await control('DELETE', `/realms/${enc(realmId)}/faults/${enc(rule.id)}`);
          return `rule ${rule.id} removed`;
        }),
      },
      'Remove',
    );
  // One item per rule (the realms column is narrow): what it matches, then who, when, what it does, how often it did.
  return [
    h(
      'ul',
      { class: 'rules' },
      rules.map((rule) =>
        h(
          'li',
          { dataset: { testid: 'fault-rule', rule: rule.id } },
          h('code', {}, rule.id),
          ' ',
          h('strong', {}, target(rule)),
          ' ',
          remove(rule),
          h(
            'div',
            { class: 'muted' },
            `${who(rule)} · ${trigger(rule)} · `,
            h('span', { class: 'effect' }, effectText(rule)),
            ` · applied ${counts(rule)}`,
          ),
        ),
      ),
    ),
    h(
      'button',
      {
        type: 'button',
        dataset: { testid: `faults-clear-${realmId}` },
        onclick: action(realmId, async () => {
          await control('DELETE', `/realms/${enc(realmId)}/faults`);
          return 'fault rules removed';
        }),
      },
      'Remove all',
    ),
  ];
}

const enc = encodeURIComponent;
const given = (v) => v !== undefined && v !== null && v !== '';
const target = (r) => (given(r.operation) ? r.operation : `${r.method ?? 'any'} ${r.path ?? ''}`);
const who = (r) => (given(r.user) ? `user ${r.user}` : given(r.role) ? `${r.role}s` : 'anyone');

function trigger(r) {
  const parts = [];
  if (given(r.every) && r.every > 1) parts.push(`every ${ordinal(r.every)}`);
  if (given(r.probability)) parts.push(`p ${r.probability}${given(r.seed) ? ` (seed ${r.seed})` : ''}`);
  if (given(r.times)) parts.push(`${r.times} times`);
  return parts.length ? parts.join(', ') : 'every request';
}

function ordinal(n) {
  const tens = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${tens ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th')}`;
}

/** An effect in a few words: `rate_limit (retry after 2 s)`, `latency uniform 100–900 ms`, `error 400 BAD_REQUEST`. */
export function effectText(r) {
  const e = r.effect ?? {};
  let text;
  if (e.type === 'preset') text = `${e.preset}${given(e.retry_after) ? ` (retry after ${e.retry_after} s)` : ''}`;
  else if (e.type === 'error') text = `error ${e.status ?? ''} ${e.code ?? ''}${given(e.msg) ? `: ${e.msg}` : ''}`;
  else if (e.type === 'latency' && e.distribution === 'uniform') text = `latency uniform ${e.min_ms}–${e.max_ms} ms`;
  else if (e.type === 'latency' && e.distribution === 'lognormal') text = `latency log-normal ${e.median_ms} ms σ ${e.sigma}`;
  else if (e.type === 'latency' || e.type === 'trickle') text = `${e.type} ${e.ms} ms`;
  else text = String(e.type ?? '?');
  // The phase tells an answer or wire fault made before the request ran from one that replaced its answer; a
  // latency or trickle delays the API's own answer either way.
  const delays = e.type === 'latency' || e.type === 'trickle';
  return r.phase === 'after' && !delays ? `${text}, after the request ran` : text;
}

const counts = (r) => `${r.applied ?? 0}${given(r.remaining) ? ` · ${r.remaining} left` : ''}`;

/** The add-a-rule form; its fields are named `fault-*` (renderRealms keeps typed inputs by name). */
function ruleForm(realmId) {
  const field = (label, control, kind) => h('label', { class: 'field', dataset: kind ? { kind } : {} }, label, ' ', control);
  const input = (name, attrs = {}) => h('input', { name: `fault-${name}`, dataset: { testid: `fault-${name}-${realmId}` }, ...attrs });
  const number = (name, attrs = {}) => input(name, { type: 'number', ...attrs });
  const select = (name, options, labels = {}) =>
    h(
      'select',
      { name: `fault-${name}`, dataset: { testid: `fault-${name}-${realmId}` } },
      options.map((o) => h('option', { value: o }, labels[o] ?? (o || '—'))),
    );
  const effect = select('effect', EFFECTS);
  const distribution = select('distribution', ['fixed', 'uniform', 'lognormal'], { lognormal: 'log-normal' });
  const form = h(
    'form',
    { class: 'fault-form', dataset: { testid: `fault-form-${realmId}` } },
    h('div', { class: 'row' }, field('operation', input('operation', { list: 'fault-operations', placeholder: 'send-message' }))),
    h(
      'div',
      { class: 'row' },
      field('or method', select('method', ['', ...METHODS])),
      field('path', input('path', { list: 'fault-paths', placeholder: '/messages or /users/*' })),
    ),
    h(
      'div',
      { class: 'row' },
      field('user', input('user', { placeholder: 'ID or email', size: '14' })),
      field('or role', select('role', ['', ...ROLES])),
    ),
    h(
      'div',
      { class: 'row' },
      field('every', number('every', { min: '1', placeholder: '1' })),
      field('times', number('times', { min: '1', placeholder: '∞' })),
      field('probability', number('probability', { min: '0', max: '1', step: 'any' })),
      field('seed', number('seed', { step: '1' })),
    ),
    h(
      'div',
      { class: 'row' },
      field('effect', effect),
      field('retry after (s)', number('retry_after', { min: '0' }), 'rate_limit'),
      field('status', number('status', { min: '400', max: '599', value: '400' }), 'error'),
      field('code', input('code', { value: 'BAD_REQUEST', size: '14' }), 'error'),
      field('msg', input('msg', { size: '18', placeholder: 'the answer’s msg' }), 'error'),
      field('distribution', distribution, 'latency'),
      field('ms', number('ms', { min: '0', value: '500' }), 'latency-fixed trickle'),
      field('min ms', number('min_ms', { min: '0', value: '100' }), 'latency-uniform'),
      field('max ms', number('max_ms', { min: '0', value: '900' }), 'latency-uniform'),
      field('median ms', number('median_ms', { min: '0', value: '200' }), 'latency-lognormal'),
      field('sigma', number('sigma', { min: '0', step: 'any', value: '0.5' }), 'latency-lognormal'),
      field('phase', select('phase', ['before', 'after']), 'answer'),
    ),
    h('button', { type: 'submit', dataset: { testid: `fault-add-${realmId}` } }, 'Add rule'),
  );
  const showFields = () => {
    const type = effect.value;
    const shown = new Set([type, type === 'latency' ? `latency-${distribution.value}` : '']);
    if (type !== 'latency' && type !== 'trickle') shown.add('answer');
    for (const label of form.querySelectorAll('label[data-kind]')) label.hidden = !label.dataset.kind.split(' ').some((k) => shown.has(k));
  };
  effect.addEventListener('change', showFields);
  distribution.addEventListener('change', showFields);
  showFields();
  form.addEventListener(
    'submit',
    action(realmId, async () => {
      const answer = await control('POST', `/realms/${enc(realmId)}/faults`, ruleOf(form));
      const id = answer.rule?.id ?? answer.id;
      return id ? `rule ${id} added` : 'rule added';
    }),
  );
  return form;
}

/** The control API's rule (design: "Fault rules") from the form; empty fields are left out (the server's defaults). */
export function ruleOf(form) {
  const text = (name) => form.elements[`fault-${name}`].value.trim();
  const num = (name) => (text(name) === '' ? undefined : Number(text(name)));
  const rule = {};
  if (text('operation')) rule.operation = text('operation');
  else {
    if (text('method')) rule.method = text('method');
    if (text('path')) rule.path = text('path');
  }
  if (text('user')) rule.user = /^\d+$/.test(text('user')) ? Number(text('user')) : text('user');
  else if (text('role')) rule.role = text('role');
  for (const name of ['every', 'times', 'probability', 'seed']) if (num(name) !== undefined) rule[name] = num(name);
  const type = text('effect');
  if (PRESETS.includes(type)) {
    rule.effect = { type: 'preset', preset: type };
    if (type === 'rate_limit' && num('retry_after') !== undefined) rule.effect.retry_after = num('retry_after');
  } else if (type === 'error') {
    rule.effect = { type, status: num('status'), code: text('code') };
    if (text('msg')) rule.effect.msg = text('msg');
  } else if (type === 'latency') {
    const distribution = text('distribution');
    if (distribution === 'uniform') rule.effect = { type, distribution, min_ms: num('min_ms'), max_ms: num('max_ms') };
    else if (distribution === 'lognormal') rule.effect = { type, distribution, median_ms: num('median_ms'), sigma: num('sigma') };
    else rule.effect = { type, ms: num('ms') };
  } else if (type === 'trickle') rule.effect = { type, ms: num('ms') };
  else rule.effect = { type };
  if (type !== 'latency' && type !== 'trickle') rule.phase = text('phase');
  return rule;
}
