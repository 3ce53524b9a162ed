import type { ExploreActor } from '../actors.js';
import { ref, type Knowledge } from '../knowledge.js';
import type { Step, StepValue } from '../types.js';
import { liveChannelsOf, subscribedTo, visibleMessages } from '../visibility.js';
import { pick, topicKey, type Template, type VerifyContext } from './template.js';

/**
 * A user's own marks on messages and channels (companion tier): read and starred flags (by ID, by
 * channel, by narrow, everything), topic visibility policies and subscription settings. All of them are
 * the actor's own business on messages and channels it can see, so they must succeed.
 */

type Row = Record<string, unknown>;

/** A replayed step on a channel (named by `stream_id` or the narrow's operand) is valid while the actor is in it and it is live. */
function inLiveChannel({ k, actor }: { k: Knowledge; actor: ExploreActor }, step: Step): boolean {
  const named =
    step.params.stream_id ??
    (step.params.subscription_data as Row[] | undefined)?.[0]?.stream_id ??
    (step.params.narrow as Row[] | undefined)?.[0]?.operand;
  const c = k.channel((named as { $ref?: string } | undefined)?.$ref ?? '');
  return c !== undefined && liveChannelsOf(actor, k).includes(c);
}

/** The actor's flags on a message, as GET /messages/{id} reads them. */
async function flagsOf(v: VerifyContext, id: number): Promise<string[] | null> {
  const read = await v.actor.call('GET', `/api/v1/messages/${id}`);
  const flags = (read.body.message as Row | undefined)?.flags;
  return Array.isArray(flags) ? (flags as string[]) : null;
}

export const updateFlags: Template = {
  name: 'update-message-flags',
  operation: 'update-message-flags',
  weight: 3,
  plan({ k, actor, choice }) {
    const m = pick(visibleMessages(actor, k), choice.a, choice.focus);
    if (!m) return null;
    const flag = choice.c % 2 === 0 ? 'read' : 'starred';
    return { params: { messages: [ref(m.key)], op: choice.flag ? 'remove' : 'add', flag }, expect: 'success' };
  },
  learn({ k, step, actor }) {
    // A flag change that departs from what a message without a copy counts as (read, not starred) gives the actor a
    // copy (the reference's "historical" UserMessage row): starring, or marking unread in a channel it is subscribed
    // to (elsewhere that is ignored). Later flag events about it, such as those of leaving the channel, and its topic
    // for mark_topic_as_read, then concern the actor's own copy. Other changes are no-ops and give none.
    const key = ((step.params.messages as StepValue[])[0] as { $ref: string }).$ref;
    const m = k.message(key);
    if (!m) return;
    const channel = m.channel === null ? undefined : k.channel(m.channel);
    const subscribed = channel === undefined || subscribedTo(actor).has(channel.id);
    const { op, flag } = step.params;
    if ((op === 'add' && flag === 'starred') || (op === 'remove' && flag === 'read' && subscribed))
      (m.receivedBy ??= new Set()).add(actor.name);
  },
  async verify(v) {
    const { k, step, actor, fail } = v;
    const key = ((step.params.messages as StepValue[])[0] as { $ref: string }).$ref;
    const m = k.message(key)!;
    const { op, flag } = step.params;
    // Marking unread outside the channels one is subscribed to is skipped (the answer names them).
    if (op === 'remove' && flag === 'read' && m.channel !== null && !subscribedTo(actor).has(k.channel(m.channel)!.id)) return;
    const flags = await flagsOf(v, m.id);
    if (flags === null) return fail(`${actor.name} cannot read message ${m.key} it just flagged`, actor.name);
    if (flags.includes(String(flag)) !== (op === 'add'))
      fail(`${actor.name} ${String(op)}ed ${String(flag)} on ${m.key}, and reading it shows flags ${JSON.stringify(flags)}`, actor.name);
  },
};

/** Messages of a channel still unread for the actor, as GET /messages reads them. */
async function unreadIn(actor: ExploreActor, channelId: number): Promise<number[] | null> {
  const read = await actor.call('GET', '/api/v1/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channelId },
      { operator: 'is', operand: 'unread' },
    ],
  });
  const messages = read.body.messages as Row[] | undefined;
  return Array.isArray(messages) ? messages.map((x) => Number(x.id)) : null;
}

export const markChannelRead: Template = {
  name: 'mark-stream-as-read',
  operation: 'mark-stream-as-read',
  weight: 1,
  valid: inLiveChannel,
  plan({ k, actor, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    return { params: { stream_id: ref(channel.key) }, expect: 'success' };
  },
  async verify({ k, step, actor, fail }) {
    const channel = k.channel((step.params.stream_id as { $ref: string }).$ref)!;
    const unread = await unreadIn(actor, channel.id);
    if (unread && unread.length > 0)
      fail(
        `${actor.name} marked channel ${channel.key} as read, and it still reads ${unread.length} unread messages there`,
        actor.name,
        unread,
      );
  },
};

/**
 * Everything read: on a server explore did not make, the messages this marks read outside explore's
 * channels are marked unread again at teardown (the world as it was found).
 */
export const markAllRead: Template = {
  name: 'mark-all-as-read',
  operation: 'mark-all-as-read',
  weight: 1,
  plan: () => ({ params: {}, expect: 'success' }),
  learn({ k, actor }) {
    const unread = actor.state.unread_msgs as Record<string, Row[]> | undefined;
    if (!unread || k.owned.some((o) => o.key === `unread:${actor.name}`)) return;
    const ours = new Set(k.channels.map((c) => c.id));
    const ids = [...(unread.pms ?? []), ...(unread.huddles ?? []), ...(unread.streams ?? []).filter((r) => !ours.has(Number(r.stream_id)))]
      .flatMap((r) => (r.unread_message_ids ?? []) as number[])
      .slice(0, 5000);
    k.own({
      key: `unread:${actor.name}`,
      kind: 'unread',
      owner: actor.name,
      data: {},
      undo: { method: 'POST', path: '/api/v1/messages/flags', params: { messages: ids, op: 'remove', flag: 'read' } },
    });
  },
  async verify({ k, actor, fail }) {
    for (const c of liveChannelsOf(actor, k)) {
      const unread = await unreadIn(actor, c.id);
      if (unread && unread.length > 0)
        fail(
          `${actor.name} marked everything as read, and channel ${c.key} still reads ${unread.length} unread messages`,
          actor.name,
          unread,
        );
    }
  },
};

export const flagsForNarrow: Template = {
  name: 'update-message-flags-for-narrow',
  operation: 'update-message-flags-for-narrow',
  weight: 1,
  valid: inLiveChannel,
  plan({ k, actor, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    return {
      params: {
        anchor: choice.flag ? 'newest' : 'oldest',
        num_before: choice.flag ? 50 : 0,
        num_after: choice.flag ? 0 : 50,
        narrow: [{ operator: 'channel', operand: ref(channel.key) }],
        op: choice.b % 2 === 0 ? 'add' : 'remove',
        flag: choice.c % 2 === 0 ? 'read' : 'starred',
      },
      expect: 'success',
    };
  },
  async verify({ k, step, actor, fail }) {
    if (step.params.flag !== 'read') return;
    const channel = k.channel(((step.params.narrow as Row[])[0]!.operand as { $ref: string }).$ref)!;
    const unread = await unreadIn(actor, channel.id);
    if (unread === null) return;
    const ids = k.liveMessages().filter((m) => m.channel === channel.key && m.key.startsWith('m'));
    if (step.params.op === 'add' && unread.length > 0)
      fail(
        `${actor.name} marked channel ${channel.key} read by narrow, and ${unread.length} messages still read unread`,
        actor.name,
        unread,
      );
    if (step.params.op === 'remove' && ids.some((m) => !unread.includes(m.id)))
      fail(`${actor.name} marked channel ${channel.key} unread by narrow, and a message of it still reads as read`, actor.name, unread);
  },
};

/** 0 none, 1 muted, 2 unmuted, 3 followed (the reference's visibility policies). */
export const userTopic: Template = {
  name: 'update-user-topic',
  operation: 'update-user-topic',
  weight: 2,
  valid: inLiveChannel,
  plan({ k, actor, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    const topic = channel ? pick(k.topicsOf(channel.key), choice.b, choice.focus, (t) => topicKey(channel.key, t)) : null;
    if (!channel || topic === null) return null;
    return { params: { stream_id: ref(channel.key), topic, visibility_policy: choice.c % 4 }, expect: 'success' };
  },
  verify({ k, step, actor, fail }) {
    const channel = k.channel((step.params.stream_id as { $ref: string }).$ref)!;
    const rows = (actor.state.user_topics ?? null) as Row[] | null;
    if (rows === null) return Promise.resolve();
    const topic = String(step.params.topic).toLowerCase();
    const row = rows.find((r) => r.stream_id === channel.id && String(r.topic_name).toLowerCase() === topic);
    const policy = row ? Number(row.visibility_policy) : 0;
    if (policy !== step.params.visibility_policy)
      fail(
        `${actor.name} set topic "${topic}" of ${channel.key} to policy ${String(step.params.visibility_policy)}, register reads ${policy}`,
        actor.name,
        row,
      );
    return Promise.resolve();
  },
};

const COLORS = ['#c2c2c2', '#76ce90', '#f5ce6e'];

export const subscriptionSettings: Template = {
  name: 'update-subscription-settings',
  operation: 'update-subscription-settings',
  weight: 2,
  valid: inLiveChannel,
  plan({ k, actor, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    const change =
      choice.b % 3 === 0
        ? { property: 'is_muted', value: choice.flag }
        : choice.b % 3 === 1
          ? { property: 'pin_to_top', value: choice.flag }
          : { property: 'color', value: COLORS[choice.c % COLORS.length]! };
    return { params: { subscription_data: [{ stream_id: ref(channel.key), ...change }] }, expect: 'success' };
  },
  verify({ k, step, actor, fail }) {
    const change = (step.params.subscription_data as Row[])[0]!;
    const channel = k.channel((change.stream_id as { $ref: string }).$ref)!;
    const row = ((actor.state.subscriptions ?? []) as Row[]).find((r) => r.stream_id === channel.id);
    const property = String(change.property);
    if (row && row[property] !== change.value)
      fail(
        `${actor.name} set ${property} of ${channel.key} to ${JSON.stringify(change.value)}, register reads ${JSON.stringify(row[property])}`,
        actor.name,
        row,
      );
    return Promise.resolve();
  },
};

export const FLAG_TEMPLATES: Template[] = [updateFlags, markChannelRead, markAllRead, flagsForNarrow, userTopic, subscriptionSettings];
