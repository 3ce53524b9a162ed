import type { ExploreActor } from '../actors.js';
import { ref, type Knowledge } from '../knowledge.js';
import { liveChannelsOf, visibleMessages } from '../visibility.js';
import { isAdmin } from './channels.js';
import { NO_SUCH_ID } from './messages.js';
import { verifyListed } from './personal.js';
import { pathKey } from './reads.js';
import type { Step } from '../types.js';
import { pick, type Template } from './template.js';

/**
 * Things that wait or act realm-wide: message reminders and scheduled messages (delivered a year from
 * now, so nothing is delivered during a run), and linkifiers (administrators only; explore's own
 * patterns, named by the sequence's token, so they match nothing else). All are removed at teardown.
 */

type Row = Record<string, unknown>;

/** A year after the later of this machine's clock and the server's (a mock's clock may run elsewhere). */
function farFuture(actor: ExploreActor): number {
  const server = Number(actor.state.server_timestamp ?? 0);
  return Math.floor(Math.max(Date.now() / 1000, Number.isFinite(server) ? server : 0)) + 365 * 24 * 3600;
}

/** A replayed edit or removal is valid while the thing its path names is still there (its owner's, for personal things). */
const stillOwned =
  (kind: string, anyOwner = false) =>
  ({ k, actor }: { k: Knowledge; actor: ExploreActor }, step: Step): boolean =>
    k.ownedOf(kind, anyOwner ? undefined : actor.name).some((o) => o.key === pathKey(step));

const undoDelete = (path: string) => ({ method: 'DELETE', path, params: {} });
const missing = (what: string) => ({ what: `a ${what} that does not exist`, status: 404, code: 'BAD_REQUEST' });

/* ------------------------------------------------------------------ reminders (spec §2.12, §4.19) */

const REMINDERS = { path: '/api/v1/reminders', field: 'reminders', id: 'reminder_id' };

export const createReminder: Template = {
  name: 'create-message-reminder',
  operation: 'create-message-reminder',
  weight: 1,
  plan({ k, actor, choice, n }) {
    const m = pick(visibleMessages(actor, k), choice.a, choice.focus);
    if (!m) return null;
    return {
      params: { message_id: ref(m.key), scheduled_delivery_timestamp: farFuture(actor), note: `explore ${n}` },
      expect: 'success',
      binds: 'r',
    };
  },
  bind: (reply) => reply.body.reminder_id,
  learn({ k, step, bound, actor }) {
    k.own({ key: bound!, kind: 'reminder', owner: actor.name, data: step.params, undo: undoDelete(`/api/v1/reminders/${k.idOf(bound!)}`) });
  },
  verify: (v) => verifyListed(v, REMINDERS, v.bound!, { message_id: v.step.params.message_id!, note: v.step.params.note! }),
};

export const deleteReminder: Template = {
  name: 'delete-reminder',
  operation: 'delete-reminder',
  weight: 1,
  valid: stillOwned('reminder'),
  plan({ k, actor, choice }) {
    if (choice.invalid) return { pathParams: { reminder_id: NO_SUCH_ID }, params: {}, expect: 'success', invalid: missing('reminder') };
    const r = pick(k.ownedOf('reminder', actor.name), choice.b, choice.focus);
    return r ? { pathParams: { reminder_id: ref(r.key) }, params: {}, expect: 'success' } : null;
  },
  learn: ({ k, step }) => k.disown(pathKey(step)),
  verify: (v) => verifyListed(v, REMINDERS, pathKey(v.step), null),
};

/* ------------------------------------------------------------------ scheduled messages (spec §2.1, §4.1, §4.2) */

const SCHEDULED = { path: '/api/v1/scheduled_messages', field: 'scheduled_messages', id: 'scheduled_message_id' };

export const createScheduled: Template = {
  name: 'create-scheduled-message',
  operation: 'create-scheduled-message',
  weight: 1,
  plan({ k, actor, choice, n }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    return {
      params: {
        type: 'stream',
        to: ref(channel.key),
        topic: 'later',
        content: `explore ${n}: scheduled`,
        scheduled_delivery_timestamp: farFuture(actor),
      },
      expect: 'success',
      binds: 'p',
    };
  },
  bind: (reply) => reply.body.scheduled_message_id,
  learn({ k, step, bound, actor }) {
    k.own({
      key: bound!,
      kind: 'scheduled',
      owner: actor.name,
      data: step.params,
      undo: undoDelete(`/api/v1/scheduled_messages/${k.idOf(bound!)}`),
    });
  },
  verify: (v) => verifyListed(v, SCHEDULED, v.bound!, { content: v.step.params.content!, topic: v.step.params.topic! }),
};

export const updateScheduled: Template = {
  name: 'update-scheduled-message',
  operation: 'update-scheduled-message',
  weight: 1,
  valid: stillOwned('scheduled'),
  plan({ k, actor, choice, n }) {
    const content = `explore ${n}: rescheduled`;
    if (choice.invalid)
      return {
        pathParams: { scheduled_message_id: NO_SUCH_ID },
        params: { content },
        expect: 'success',
        invalid: missing('scheduled message'),
      };
    const s = pick(k.ownedOf('scheduled', actor.name), choice.b, choice.focus);
    if (!s) return null;
    // An edit checks the message again: its channel must still take the actor's messages.
    const to = (s.data.to as { $ref: string }).$ref;
    const still = liveChannelsOf(actor, k).some((c) => c.key === to);
    return { pathParams: { scheduled_message_id: ref(s.key) }, params: { content }, expect: still ? 'success' : 'either' };
  },
  learn({ k, step }) {
    const s = k.owned.find((o) => o.key === pathKey(step));
    if (s) s.data = { ...s.data, content: step.params.content! };
  },
  verify: (v) => verifyListed(v, SCHEDULED, pathKey(v.step), { content: v.step.params.content! }),
};

export const deleteScheduled: Template = {
  name: 'delete-scheduled-message',
  operation: 'delete-scheduled-message',
  weight: 1,
  valid: stillOwned('scheduled'),
  plan({ k, actor, choice }) {
    if (choice.invalid)
      return { pathParams: { scheduled_message_id: NO_SUCH_ID }, params: {}, expect: 'success', invalid: missing('scheduled message') };
    const s = pick(k.ownedOf('scheduled', actor.name), choice.b, choice.focus);
    return s ? { pathParams: { scheduled_message_id: ref(s.key) }, params: {}, expect: 'success' } : null;
  },
  learn: ({ k, step }) => k.disown(pathKey(step)),
  verify: (v) => verifyListed(v, SCHEDULED, pathKey(v.step), null),
};

/* ------------------------------------------------------------------ linkifiers (spec §2.11, §4.18) */

/** The realm's linkifiers as GET /realm/linkifiers reads them. */
async function linkifiers(actor: ExploreActor): Promise<Row[]> {
  const read = await actor.call('GET', '/api/v1/realm/linkifiers');
  return (read.body.linkifiers ?? []) as Row[];
}

function linkifierParams(k: Knowledge, n: number) {
  return { pattern: `${k.token}l${n}-(?P<id>[0-9]+)`, url_template: `https://example.com/${k.token}/${n}/{id}` };
}

export const addLinkifier: Template = {
  name: 'add-linkifier',
  operation: 'add-linkifier',
  weight: 1,
  plan: ({ k, actor, n }) => ({ params: linkifierParams(k, n), expect: isAdmin(actor) ? 'success' : 'either', binds: 'f' }),
  learn({ k, step, bound, actor }) {
    k.own({
      key: bound!,
      kind: 'linkifier',
      owner: actor.name,
      data: step.params,
      undo: undoDelete(`/api/v1/realm/filters/${k.idOf(bound!)}`),
    });
  },
  async verify({ k, bound, step, actor, fail }) {
    const row = (await linkifiers(actor)).find((r) => r.id === k.idOf(bound!));
    if (row?.pattern !== step.params.pattern)
      fail(`linkifier ${bound!} was added, the realm's list reads ${JSON.stringify(row)}`, actor.name);
  },
};

export const updateLinkifier: Template = {
  name: 'update-linkifier',
  operation: 'update-linkifier',
  weight: 1,
  valid: stillOwned('linkifier', true),
  plan({ k, actor, choice, n }) {
    const f = pick(k.ownedOf('linkifier'), choice.b, choice.focus);
    if (!f) return null;
    return { pathParams: { filter_id: ref(f.key) }, params: linkifierParams(k, n), expect: isAdmin(actor) ? 'success' : 'either' };
  },
  async verify({ k, step, actor, fail }) {
    const row = (await linkifiers(actor)).find((r) => r.id === k.idOf(pathKey(step)));
    if (row?.pattern !== step.params.pattern)
      fail(`linkifier ${pathKey(step)} was changed, the realm's list reads ${JSON.stringify(row)}`, actor.name);
  },
};

export const removeLinkifier: Template = {
  name: 'remove-linkifier',
  operation: 'remove-linkifier',
  weight: 1,
  valid: stillOwned('linkifier', true),
  plan({ k, actor, choice }) {
    const f = pick(k.ownedOf('linkifier'), choice.b, choice.focus);
    return f ? { pathParams: { filter_id: ref(f.key) }, params: {}, expect: isAdmin(actor) ? 'success' : 'either' } : null;
  },
  learn: ({ k, step }) => k.disown(pathKey(step)),
  async verify({ k, step, actor, fail }) {
    if ((await linkifiers(actor)).some((r) => r.id === k.idOf(pathKey(step))))
      fail(`linkifier ${pathKey(step)} was removed, and the realm still lists it`, actor.name);
  },
};

export const SCHEDULED_TEMPLATES: Template[] = [
  createReminder,
  deleteReminder,
  createScheduled,
  updateScheduled,
  deleteScheduled,
  addLinkifier,
  updateLinkifier,
  removeLinkifier,
];
