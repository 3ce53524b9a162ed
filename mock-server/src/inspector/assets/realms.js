// The realms column of the inspector page: feature level, realm time, clock/reset/snapshot buttons, credentials,
// event queues, fault rules (faults.js) and server-side events (events.js) of each realm, redrawn when a state push of the feed changes them (realm times alone are updated
// in place, so a push during a click or while typing does not replace the element under the pointer or caret).
import { $, action, control, h, isoTime, realmNow, state } from './common.js';
import { queueRestart, realmEvents, userEvents } from './events.js';
import { faultsPanel, keepPanels } from './faults.js';

export function renderRealms() {
  const realms = $('realms');
  const active = document.activeElement;
  const open = active?.closest?.('[data-realm]')?.dataset.realm;
  // Inputs keep what the user typed across pushes of the feed (the fault rule forms are kept whole: faults.js).
  const inputs = () => [...realms.querySelectorAll('input[name]')].filter((i) => !i.closest('.faults'));
  const typed = Object.fromEntries(inputs().map((i) => [`${i.closest('[data-realm]').dataset.realm}/${i.name}`, i.value]));
  state.openDetails = new Set([...realms.querySelectorAll('details[data-key]')].filter((d) => d.open).map((d) => d.dataset.key));
  keepPanels(state.realms.map((realm) => realm.realm_id));
  realms.replaceChildren(...state.realms.map(realmCard));
  for (const input of inputs()) {
    const key = `${input.closest('[data-realm]').dataset.realm}/${input.name}`;
    if (key in typed) input.value = typed[key];
  }
  // Moving or replacing the focused field blurs it: give the focus back (an input, or a select of a rule form), with
  // its caret or selection, so that the next keystroke replaces or extends what it would have without the push.
  if (open && active.name) {
    const field = realms.querySelector(`[data-realm="${CSS.escape(open)}"] [name="${CSS.escape(active.name)}"]`);
    field?.focus();
    restoreSelection(active, field);
  }
  $('server-clock').textContent = state.clock ? `server clock ${state.clock.mode}, ${isoTime(state.clock.server_now)}` : '';
}

/** Number inputs have no selection API (it throws): only text-like fields get their caret back. */
function restoreSelection(from, to) {
  try {
    if (to && from.selectionStart !== null) to.setSelectionRange(from.selectionStart, from.selectionEnd, from.selectionDirection);
  } catch {
    // a type without selection: the focus alone is given back
  }
}

/** Each realm's shown time, from its last push (ticking in system mode). */
export function updateTimes() {
  for (const realm of state.realms) {
    const el = document.querySelector(`[data-testid="realm-time-${CSS.escape(realm.realm_id)}"]`);
    if (el) el.textContent = isoTime(realmNow(realm));
  }
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
    faultsPanel(realm),
    realmEvents(realm),
  );
}

/**
 * A realm's users with copyable credentials, asked of the control API once when first opened (the feed never
 * carries API keys) and kept until the realm is reset or restored, so pushes of the feed cause no calls; asked
 * again on a `reload` event (events.js: a user's key rotated, a user deactivated or reactivated). Deactivated
 * users are listed with their Reactivate button only.
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
  const show = (credentials) => body.replaceChildren(...credentials.map((c) => credentialRow(realmId, c)));
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
  details.addEventListener('reload', () => {
    state.credentials.delete(realmId);
    if (details.open) void load();
  });
  if (details.open) void load();
  return details;
}

function credentialRow(realmId, c) {
  if (!c.is_active)
    return h(
      'div',
      { class: 'credential inactive' },
      h('strong', {}, c.full_name),
      ' ',
      h('code', {}, c.email),
      ' (deactivated)',
      userEvents(realmId, c),
    );
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
    userEvents(realmId, c),
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
        queueRestart(realm.realm_id, q),
      ),
    ),
  );
}

export function renderReport(report) {
  const links = report.files.map((f) =>
    h('a', { href: f.url, target: '_blank', rel: 'noopener', title: `${f.bytes} bytes, ${new Date(f.modified).toISOString()}` }, f.name),
  );
  $('report-links').replaceChildren(
    ...(links.length
      ? ['latest conformance report: ', ...links.flatMap((a, i) => (i ? [' · ', a] : [a]))]
      : [h('span', { class: 'muted' }, 'no conformance report yet')]),
  );
}
