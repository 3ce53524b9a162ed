// The request log of the inspector page: rows from the feed's exchanges, the filter, and the clicked exchange's
// bodies (GET /__inspector/exchanges/:id), validation errors and the parameters they name highlighted, answers a
// fault rule made (or delayed, or cut) marked "injected: …" with the rule's label.
import { $, h, state } from './common.js';

/** Rows kept on the page, as the server's ring buffer (capture.ts). */
export const MAX_ROWS = 500;

/** Does an exchange pass the filter (every word must match one of its fields) and the "errors only" box? */
function shown(x) {
  if ($('errors-only').checked && !(x.status === null || x.status >= 400)) return false;
  const words = $('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  const hay =
    `${x.method} ${x.path} ${x.realm ?? ''} ${x.user ?? ''} ${x.status ?? ''} ${x.code ?? ''} ${x.msg ?? ''} ${injectedText(x)}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

const injectedText = (x) => (x.injected ? `injected: ${x.injected}` : '');

function logRow(x) {
  const error = x.code ? `${x.code}: ${x.msg ?? ''}` : '';
  const cls = [
    x.status === null ? 'gone' : x.status >= 500 ? 'fail' : x.status >= 400 ? 'warn' : 'ok',
    x.validation ? 'validation' : '',
    x.injected ? 'injected' : '',
    state.selected === x.id ? 'selected' : '',
  ];
  return h(
    'tr',
    {
      class: cls.filter(Boolean).join(' '),
      dataset: { id: x.id, testid: 'log-row' },
      tabindex: '0',
      onclick: () => select(x.id),
      onkeydown: (e) => e.key === 'Enter' && select(x.id),
    },
    h('td', {}, new Date(x.at).toISOString().slice(11, 23)),
    h('td', {}, x.method),
    h('td', { class: 'path', title: x.path }, x.path),
    h('td', {}, x.realm ?? ''),
    h('td', {}, x.user ?? ''),
    h('td', {}, x.status ?? 'gone'),
    h('td', { class: 'num' }, x.ms),
    h(
      'td',
      { class: 'error' },
      x.injected ? h('span', { class: 'injected-mark', dataset: { testid: 'injected' } }, injectedText(x)) : null,
      x.injected && error ? ' ' : null,
      error,
    ),
  );
}

export function renderLog() {
  const rows = state.exchanges.filter(shown);
  $('log').tBodies[0].replaceChildren(...rows.reverse().map(logRow));
  $('log-count').textContent = `${rows.length} of ${state.exchanges.length}`;
}

async function select(id) {
  state.selected = id;
  renderLog();
  const detail = $('detail');
  detail.hidden = false;
  detail.replaceChildren(h('p', { class: 'muted' }, 'loading…'));
  const res = await fetch(`/__inspector/exchanges/${id}`, { credentials: 'same-origin' });
  const answer = await res.json();
  if (answer.result !== 'success') return detail.replaceChildren(h('p', { class: 'problem' }, answer.msg));
  detail.replaceChildren(...exchangeDetail(answer.exchange).flat().filter(Boolean));
}

function exchangeDetail(x) {
  // The parameter an error names: `var_name`, or a name the message quotes ('anchor', "to", …).
  const named = new Set(
    [
      x.var_name,
      ...[...(x.msg ?? '').matchAll(/['"]([a-z_][a-z0-9_]*)['"]/gi)].map((m) => m[1]),
      ...[...(x.msg ?? '').matchAll(/^Invalid ([a-z_][a-z0-9_]*)/gi)].map((m) => m[1]),
    ].filter(Boolean),
  );
  const params = Object.entries(x.query);
  let form = null;
  try {
    form = x.request.text && !x.request.truncated ? JSON.parse(x.request.text) : null;
  } catch {
    form = null;
  }
  if (form && typeof form === 'object' && !Array.isArray(form)) params.push(...Object.entries(form));
  const value = (v) => (typeof v === 'string' ? v : JSON.stringify(v));
  return [
    h(
      'h3',
      {},
      `${x.method} ${x.path} → ${x.status ?? 'closed by the client'} (${x.ms} ms)`,
      h(
        'button',
        {
          type: 'button',
          class: 'close',
          onclick: () => {
            $('detail').hidden = true;
            state.selected = null;
            renderLog();
          },
        },
        '×',
      ),
    ),
    x.injected
      ? h(
          'p',
          { class: 'injected-banner', dataset: { testid: 'detail-injected' } },
          h('span', { class: 'injected-mark' }, injectedText(x)),
          ' this answer was made or changed by a fault rule, not by the API.',
        )
      : null,
    x.code
      ? h(
          'p',
          { class: x.validation ? 'error-banner validation' : 'error-banner', dataset: { testid: 'detail-error' } },
          x.validation ? 'Validation error ' : 'Error ',
          h('code', {}, x.code),
          ': ',
          x.msg ?? '',
        )
      : null,
    h('h4', {}, 'Request parameters'),
    params.length === 0
      ? h('p', { class: 'muted' }, x.request.text && !form ? '' : '(none)')
      : h(
          'table',
          { class: 'params' },
          params.map(([k, v]) =>
            h(
              'tr',
              { class: named.has(k) ? 'invalid' : '', dataset: { testid: named.has(k) ? 'invalid-param' : 'param' } },
              h('th', {}, k),
              h('td', {}, h('code', {}, value(v))),
            ),
          ),
        ),
    x.request.text && !form ? bodyBlock('Request body', x.request) : null,
    bodyBlock('Response body', x.response, 'detail-response'),
  ];
}

function bodyBlock(title, body, testid) {
  const note = body.truncated ? ` (first ${body.text.length} of ${body.length} characters)` : '';
  return [
    h('h4', {}, title, h('span', { class: 'muted' }, ` ${body.type ?? ''}${note}`)),
    h('pre', { class: 'body', dataset: { testid } }, body.text ?? '(empty)'),
  ];
}
