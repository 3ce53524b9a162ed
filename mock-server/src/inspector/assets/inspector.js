// The inspector page (README "Inspector"): plain browser JavaScript, no build step, no framework. Everything
// shown comes from the server-sent events of /__inspector/feed; actions call the control API (/__mock) with the
// session cookie and the page's header (mock-server/src/inspector/session.ts). Text is always set as text, never
// as HTML: request paths and bodies are whatever clients sent.

const PAGE_HEADER = { 'x-teamchat-inspector': '1' };
/** Rows kept on the page, as the server's ring buffer (capture.ts). */
const MAX_ROWS = 500;

const state = {
  realms: [],
  clock: null,
  receivedAt: 0,
  exchanges: [],
  selected: null,
  openDetails: new Set(),
  credentials: new Map(),
  status: new Map(),
};

/** Builds an element: h('td', { class: 'x', onclick: fn }, 'text', child). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) el.append(child instanceof Node ? child : String(child));
  return el;
}

const $ = (id) => document.getElementById(id);

/** A realm's time now: its clock ticks with the machine's in system mode (between two pushes of the feed). */
function realmNow(realm) {
  const ticking = state.clock?.mode === 'system';
  return realm.now + (ticking ? Math.floor((performance.now() - state.receivedAt) / 1000) : 0);
}

const isoTime = (seconds) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

async function control(method, path, body) {
  const init = { method, headers: { ...PAGE_HEADER }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`/__mock${path}`, init);
  const answer = await res.json();
  if (answer.result !== 'success') throw new Error(`${answer.code ?? res.status}: ${answer.msg}`);
  return answer;
}

/**
 * Runs a control call from a button; its outcome is shown beside the realm (kept across re-renders of the
 * feed's pushes), never thrown into the console.
 */
function action(realmId, fn) {
  const say = (text) => {
    state.status.set(realmId, text);
    const el = document.querySelector(`[data-realm-status="${CSS.escape(realmId)}"]`);
    if (el) el.textContent = text;
  };
  return async (event) => {
    event.preventDefault();
    say('…');
    try {
      say((await fn()) ?? 'done');
    } catch (error) {
      say(String(error.message ?? error));
    }
  };
}

function renderRealms() {
  const realms = $('realms');
  const open = document.activeElement?.closest?.('[data-realm]')?.dataset.realm;
  // Inputs keep what the user typed across pushes of the feed.
  const typed = Object.fromEntries(
    [...realms.querySelectorAll('input[name]')].map((i) => [`${i.closest('[data-realm]').dataset.realm}/${i.name}`, i.value]),
  );
  state.openDetails = new Set([...realms.querySelectorAll('details[data-key]')].filter((d) => d.open).map((d) => d.dataset.key));
  realms.replaceChildren(...state.realms.map(realmCard));
  for (const input of realms.querySelectorAll('input[name]')) {
    const key = `${input.closest('[data-realm]').dataset.realm}/${input.name}`;
    if (key in typed) input.value = typed[key];
  }
  if (open) realms.querySelector(`[data-realm="${CSS.escape(open)}"] input`)?.focus();
  $('server-clock').textContent = state.clock ? `server clock ${state.clock.mode}, ${isoTime(state.clock.server_now)}` : '';
}

function realmCard(realm) {
  const id = realm.realm_id;
  const seconds = h('input', {
    name: 'seconds',
    type: 'number',
    min: '0',
    value: '3600',
    'aria-label': 'seconds',
    dataset: { testid: `advance-seconds-${id}` },
  });
  const snapshotName = h('input', {
    name: 'snapshot',
    value: 'before',
    'aria-label': 'snapshot name',
    dataset: { testid: `snapshot-name-${id}` },
  });
  return h(
    'article',
    { class: 'realm', dataset: { realm: id, testid: `realm-${id}` } },
    h('h3', {}, realm.name, ' ', h('code', {}, id)),
    h(
      'dl',
      {},
      h('dt', {}, 'feature level'),
      h('dd', { dataset: { testid: `realm-level-${id}` } }, realm.feature_level),
      h('dt', {}, 'realm time'),
      h('dd', { class: 'realm-time', dataset: { testid: `realm-time-${id}`, now: realm.now } }, isoTime(realmNow(realm))),
      h('dt', {}, 'users'),
      h('dd', {}, realm.users),
    ),
    h(
      'form',
      {
        class: 'row',
        onsubmit: action(
          id,
          async () =>
            `advanced to ${isoTime((await control('POST', `/realms/${id}/clock/advance`, { seconds: Number(seconds.value) })).now)}`,
        ),
      },
      seconds,
      h('button', { type: 'submit', dataset: { testid: `advance-${id}` } }, 'Advance clock'),
      h(
        'button',
        {
          type: 'button',
          dataset: { testid: `reset-${id}` },
          onclick: action(id, async () => {
            if (!window.confirm(`Reset realm '${id}' to its fixture? Its data and event queues are replaced.`)) return 'not reset';
            await control('POST', `/realms/${id}/reset`);
            state.credentials.delete(id);
            return 'reset';
          }),
        },
        'Reset realm',
      ),
    ),
    h(
      'form',
      {
        class: 'row',
        onsubmit: action(
          id,
          async () => `snapshot '${(await control('POST', `/realms/${id}/snapshots`, { name: snapshotName.value })).name}' taken`,
        ),
      },
      snapshotName,
      h('button', { type: 'submit', dataset: { testid: `snapshot-${id}` } }, 'Take snapshot'),
    ),
    realm.snapshots.length === 0
      ? null
      : h(
          'ul',
          { class: 'snapshots' },
          realm.snapshots.map((name) =>
            h(
              'li',
              {},
              h('code', {}, name),
              ' ',
              h(
                'button',
                {
                  type: 'button',
                  dataset: { testid: `restore-${id}-${name}` },
                  onclick: action(id, async () => {
                    await control('POST', `/realms/${id}/snapshots/${encodeURIComponent(name)}/restore`);
                    state.credentials.delete(id);
                    return `'${name}' restored`;
                  }),
                },
                'Restore',
              ),
            ),
          ),
        ),
    h('p', { class: 'status', role: 'status', dataset: { realmStatus: id, testid: `realm-status-${id}` } }, state.status.get(id) ?? ''),
    credentialsBlock(id),
    queuesBlock(realm),
  );
}

/**
 * A realm's users with copyable credentials, asked of the control API once when first opened (the feed never
 * carries API keys) and kept until the realm is reset or restored, so pushes of the feed cause no calls.
 */
function credentialsBlock(realmId) {
  const key = `credentials/${realmId}`;
  const details = h(
    'details',
    { class: 'credentials', open: state.openDetails.has(key), dataset: { key, testid: `credentials-${realmId}` } },
    h('summary', {}, 'Credentials'),
  );
  const body = h('div', {});
  details.append(body);
  const show = (credentials) => body.replaceChildren(...credentials.filter((c) => c.is_active).map(credentialRow));
  const load = async () => {
    if (state.credentials.has(realmId)) return show(state.credentials.get(realmId));
    body.replaceChildren(h('p', { class: 'muted' }, 'loading…'));
    try {
      const { credentials } = await control('GET', `/realms/${realmId}/credentials`);
      state.credentials.set(realmId, credentials);
      show(credentials);
    } catch (error) {
      body.replaceChildren(h('p', { class: 'problem' }, String(error.message ?? error)));
    }
  };
  details.addEventListener('toggle', () => details.open && void load());
  if (details.open) void load();
  return details;
}

function credentialRow(c) {
  const site = window.location.origin;
  const zuliprc = `[api]\nemail=${c.email}\nkey=${c.api_key}\nsite=${site}\n`;
  const curl = `curl -sSu '${c.email}:${c.api_key}' ${site}/api/v1/users/me`;
  const copy = (text, label) =>
    h(
      'button',
      {
        type: 'button',
        onclick: async (e) => {
          await navigator.clipboard?.writeText(text).catch(() => undefined);
          e.target.textContent = 'copied';
        },
      },
      label,
    );
  return h(
    'div',
    { class: 'credential' },
    h('strong', {}, c.full_name),
    ' ',
    h('code', {}, c.email),
    c.is_bot ? ' (bot)' : '',
    h('div', { class: 'row' }, copy(zuliprc, 'copy zuliprc'), copy(curl, 'copy curl')),
    h('pre', { class: 'copyable' }, curl),
  );
}

function queuesBlock(realm) {
  if (realm.queues.length === 0) return h('p', { class: 'muted', dataset: { testid: `queues-${realm.realm_id}` } }, 'No event queues.');
  return h(
    'details',
    {
      class: 'queues',
      open: state.openDetails.has(`queues/${realm.realm_id}`),
      dataset: { key: `queues/${realm.realm_id}`, testid: `queues-${realm.realm_id}` },
    },
    h('summary', {}, `Event queues (${realm.queues.length})`),
    realm.queues.map((q) =>
      h(
        'details',
        { class: 'queue', open: state.openDetails.has(`queue/${q.queue_id}`), dataset: { key: `queue/${q.queue_id}` } },
        h(
          'summary',
          {},
          h('code', {}, q.queue_id.split(':').pop().slice(0, 8)),
          ` ${q.email ?? q.user_id} · ${q.pending} pending${q.waiting ? ' · polling' : ''}`,
        ),
        h(
          'p',
          { class: 'muted' },
          `types: ${q.event_types?.join(', ') ?? 'all'} · last event ${q.last_event_id} · active ${isoTime(q.last_activity)}`,
        ),
        h('pre', {}, q.events.length === 0 ? '(none pending)' : q.events.map((e) => JSON.stringify(e)).join('\n')),
      ),
    ),
  );
}

function renderReport(report) {
  const links = report.files.map((f) =>
    h('a', { href: f.url, target: '_blank', rel: 'noopener', title: `${f.bytes} bytes, ${new Date(f.modified).toISOString()}` }, f.name),
  );
  $('report-links').replaceChildren(
    ...(links.length
      ? ['latest conformance report: ', ...links.flatMap((a, i) => (i ? [' · ', a] : [a]))]
      : [h('span', { class: 'muted' }, 'no conformance report yet')]),
  );
}

/** Does an exchange pass the filter (every word must match one of its fields) and the "errors only" box? */
function shown(x) {
  if ($('errors-only').checked && !(x.status === null || x.status >= 400)) return false;
  const words = $('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  const hay = `${x.method} ${x.path} ${x.realm ?? ''} ${x.user ?? ''} ${x.status ?? ''} ${x.code ?? ''} ${x.msg ?? ''}`.toLowerCase();
  return words.every((w) => hay.includes(w));
}

function logRow(x) {
  const error = x.code ? `${x.code}: ${x.msg ?? ''}` : '';
  const cls = [
    x.status === null ? 'gone' : x.status >= 500 ? 'fail' : x.status >= 400 ? 'warn' : 'ok',
    x.validation ? 'validation' : '',
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
    h('td', { class: 'path' }, x.path),
    h('td', {}, x.realm ?? ''),
    h('td', {}, x.user ?? ''),
    h('td', {}, x.status ?? 'gone'),
    h('td', { class: 'num' }, x.ms),
    h('td', { class: 'error' }, error),
  );
}

function renderLog() {
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
  detail.replaceChildren(...exchangeDetail(answer.exchange));
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

function onState(next) {
  state.realms = next.realms;
  state.clock = next.clock;
  state.receivedAt = performance.now();
  renderRealms();
  renderReport(next.report);
}

function connect() {
  const feed = new EventSource('/__inspector/feed');
  const connection = $('connection');
  feed.addEventListener('hello', (e) => {
    const { exchanges, state: next } = JSON.parse(e.data);
    state.exchanges = exchanges;
    onState(next);
    renderLog();
    connection.textContent = 'live';
    connection.className = 'connection live';
  });
  feed.addEventListener('exchange', (e) => {
    state.exchanges.push(JSON.parse(e.data));
    if (state.exchanges.length > MAX_ROWS) state.exchanges.splice(0, state.exchanges.length - MAX_ROWS);
    renderLog();
  });
  feed.addEventListener('state', (e) => onState(JSON.parse(e.data)));
  // EventSource reconnects by itself after a dropped connection; a refused one (a 4xx) closes it for good.
  feed.addEventListener('error', () => {
    connection.textContent = feed.readyState === EventSource.CLOSED ? 'disconnected (reload the page)' : 'reconnecting…';
    connection.className = 'connection down';
  });
}

$('filter').addEventListener('input', renderLog);
$('errors-only').addEventListener('change', renderLog);
// Realm clocks in system mode tick between pushes.
setInterval(() => {
  if (state.clock?.mode !== 'system') return;
  for (const realm of state.realms) {
    const el = document.querySelector(`[data-testid="realm-time-${CSS.escape(realm.realm_id)}"]`);
    if (el) el.textContent = isoTime(realmNow(realm));
  }
}, 1000);
connect();
