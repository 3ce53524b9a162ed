// Server-side events on the inspector page (docs/inspector.md "Server-side events"): what the server does to a
// client on its own (a restart that drops event queues, a deactivated realm or user, a rotated API key, a silent
// long-poll), one button each, through the control API. Realm-wide buttons sit in the realm's card; a user's sit
// beside the user's credentials, and a queue's restart beside the queue.
import { action, control, h, state } from './common.js';

const enc = encodeURIComponent;

/** Asks the realm's credentials list to load again (a key rotated, a user deactivated: realms.js listens). */
function reloadCredentials(realmId) {
  document.querySelector(`[data-testid="credentials-${CSS.escape(realmId)}"]`)?.dispatchEvent(new Event('reload'));
}

/** The seconds typed in the realm's silence field (used by the realm's and each user's Silence button). */
function silenceSeconds(realmId) {
  return Number(document.querySelector(`[data-testid="silence-seconds-${CSS.escape(realmId)}"]`)?.value ?? 0);
}

const button = (testid, label, onclick, title) => h('button', { type: 'button', title, dataset: { testid }, onclick }, label);

export function realmEvents(realm) {
  const id = realm.realm_id;
  const path = `/realms/${enc(id)}`;
  const key = `events/${id}`;
  return h(
    'details',
    { class: 'events', open: state.openDetails.has(key), dataset: { key, testid: `events-${id}` } },
    h('summary', {}, 'Server-side events'),
    h(
      'div',
      { class: 'row' },
      button(
        `restart-${id}`,
        'Restart queues',
        action(id, async () => {
          const { queues } = await control('POST', `${path}/restart`, {});
          return `${queues ?? 'the'} event queue${queues === 1 ? ' was' : 's were'} dropped`;
        }),
        'Drops every event queue of the realm, as a server restart does: the next poll gets BAD_EVENT_QUEUE_ID.',
      ),
      button(
        `deactivate-realm-${id}`,
        'Deactivate realm',
        action(id, async () => {
          await control('POST', `${path}/deactivate`);
          return 'realm deactivated';
        }),
      ),
      button(
        `reactivate-realm-${id}`,
        'Reactivate realm',
        action(id, async () => {
          await control('POST', `${path}/reactivate`);
          return 'realm reactivated';
        }),
      ),
    ),
    h(
      'form',
      {
        class: 'row',
        onsubmit: action(id, async () => {
          const seconds = silenceSeconds(id);
          await control('POST', `${path}/silence`, { seconds });
          return `long-polls silent for ${seconds} s`;
        }),
      },
      h('input', {
        name: 'silence-seconds',
        type: 'number',
        min: '1',
        value: '30',
        'aria-label': 'seconds of silence',
        dataset: { testid: `silence-seconds-${id}` },
      }),
      h(
        'button',
        {
          type: 'submit',
          title: 'Long-polls get no answer and no heartbeat for these seconds of realm time.',
          dataset: { testid: `silence-${id}` },
        },
        'Silence long-polls (s)',
      ),
    ),
  );
}

/** A user's buttons, beside their credentials (`c` is a control API credential: user_id, email, is_active). */
export function userEvents(realmId, c) {
  const path = `/realms/${enc(realmId)}/users/${enc(c.user_id)}`;
  const then = (fn, reload) =>
    action(realmId, async () => {
      const said = await fn();
      if (reload) reloadCredentials(realmId);
      return said;
    });
  const testid = (what) => `${what}-${realmId}-${c.user_id}`;
  if (!c.is_active)
    return h(
      'div',
      { class: 'row' },
      button(
        testid('reactivate-user'),
        'Reactivate',
        then(async () => (await control('POST', `${path}/reactivate`), `${c.email} reactivated`), true),
      ),
    );
  return h(
    'div',
    { class: 'row' },
    button(
      testid('deactivate-user'),
      'Deactivate',
      then(async () => (await control('POST', `${path}/deactivate`), `${c.email} deactivated`), true),
    ),
    button(
      testid('rotate-key'),
      'Rotate API key',
      then(async () => (await control('POST', `${path}/api-key`), `${c.email} has a new API key`), true),
      'A new API key; the old one gets INVALID_API_KEY.',
    ),
    button(
      testid('restart-user'),
      'Restart queues',
      then(async () => (await control('POST', `/realms/${enc(realmId)}/restart`, { user_id: c.user_id }), `${c.email}'s queues dropped`)),
    ),
    button(
      testid('silence-user'),
      'Silence',
      then(async () => {
        const seconds = silenceSeconds(realmId);
        await control('POST', `/realms/${enc(realmId)}/silence`, { seconds, user_id: c.user_id });
        return `${c.email}'s long-polls silent for ${seconds} s`;
      }),
      "The user's long-polls get no answer and no heartbeat for the seconds of the realm's silence field.",
    ),
  );
}

/** Beside a queue: drops that user's queues (a restart of their connection). */
export function queueRestart(realmId, q) {
  return button(
    `restart-queue-${q.queue_id}`,
    "Restart this user's queues",
    action(realmId, async () => {
      await control('POST', `/realms/${enc(realmId)}/restart`, { user_id: q.user_id });
      return `${q.email ?? q.user_id}'s queues dropped`;
    }),
  );
}
