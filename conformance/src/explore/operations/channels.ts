import type { ExploreActor } from '../actors.js';
import { nameRef, ref, type Knowledge, type KnownChannel } from '../knowledge.js';
import type { Step } from '../types.js';
import { liveChannelsOf, subscribedTo } from '../visibility.js';
import { pathKey } from './reads.js';
import { pick, topicKey, type Template, type VerifyContext } from './template.js';

/**
 * Steps on channels and subscriptions: joining and leaving explore's channels, subscribing and
 * unsubscribing others, changing a channel's description and privacy, archiving one. Privacy changes
 * who may see what, so the knowledge follows it (every oracle's sight is drawn from it).
 */

type Row = Record<string, unknown>;

/** The organization's administrators (world roles): they may administer any channel they can reach. */
export const isAdmin = (actor: ExploreActor): boolean => actor.name === 'administrator' || actor.name === 'owner';

const pathChannel = (k: Knowledge, step: Step): KnownChannel => k.channel(pathKey(step))!;
/** The channel a `{"$name": key}` value names. */
const byName = (k: Knowledge, name: unknown): KnownChannel | undefined => k.channel((name as { $name: string }).$name);

/** An administrator reaches a public channel, and a private one it is subscribed to (spec §4.16). */
const administers = (actor: ExploreActor, c: KnownChannel): boolean => isAdmin(actor) && (!c.private || subscribedTo(actor).has(c.id));

/** The subject's register state (which the events oracle keeps equal to a fresh register) lists it in the channel or not. */
function expectSubscribed(v: VerifyContext, who: ExploreActor, channel: KnownChannel, subscribed: boolean): void {
  if (subscribedTo(who).has(channel.id) !== subscribed)
    v.fail(`${who.name} should ${subscribed ? '' : 'not '}be subscribed to ${channel.key} now, and register says otherwise`, who.name);
}

export const subscribe: Template = {
  name: 'subscribe',
  operation: 'subscribe',
  weight: 3,
  valid({ k, actor }, step) {
    const c = byName(k, (step.params.subscriptions as Row[])[0]!.name);
    return c !== undefined && !c.archived && !c.private && !subscribedTo(actor).has(c.id);
  },
  plan({ k, actor, choice }) {
    const subscribed = subscribedTo(actor);
    const channel = pick(
      k.channels.filter((c) => !c.archived && !subscribed.has(c.id) && !c.private),
      choice.a,
      choice.focus,
    );
    if (!channel) return null;
    // Anyone but a guest may join a public channel (spec §2.3, can_subscribe_group).
    return { params: { subscriptions: [{ name: nameRef(channel.key) }] }, expect: actor.isGuest ? 'either' : 'success' };
  },
  learn({ k, step, actor }) {
    byName(k, (step.params.subscriptions as Row[])[0]!.name)?.everIn?.add(actor.name);
  },
  verify(v) {
    const channel = byName(v.k, (v.step.params.subscriptions as Row[])[0]!.name);
    if (channel) expectSubscribed(v, v.actor, channel, true);
    return Promise.resolve();
  },
};

export const unsubscribe: Template = {
  name: 'unsubscribe',
  operation: 'unsubscribe',
  // Joining and leaving decide who may see what: as frequent as sending, so that sequences cross them.
  weight: 4,
  valid({ k, actor }, step) {
    const c = byName(k, (step.params.subscriptions as unknown[])[0]);
    return c !== undefined && !c.archived && subscribedTo(actor).has(c.id);
  },
  plan({ k, actor, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    return { params: { subscriptions: [nameRef(channel.key)] }, expect: 'success' };
  },
  verify(v) {
    const channel = byName(v.k, (v.step.params.subscriptions as unknown[])[0]);
    if (channel) expectSubscribed(v, v.actor, channel, false);
    return Promise.resolve();
  },
};

/** An administrator subscribes another actor (principals); anyone else where the channel's settings let them. */
export const subscribeOthers: Template = {
  name: 'subscribe-others',
  operation: 'subscribe',
  weight: 2,
  valid({ k, actor, actors }, step) {
    const c = byName(k, (step.params.subscriptions as Row[])[0]!.name);
    const who = actors.find((a) => a.userId === (step.params.principals as number[])[0]);
    return c !== undefined && who !== undefined && !c.archived && administers(actor, c) && !subscribedTo(who).has(c.id);
  },
  plan({ k, actor, actors, choice }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    const who = channel
      ? pick(
          actors.filter((a) => a !== actor && !subscribedTo(a).has(channel.id)),
          choice.b,
        )
      : null;
    if (!channel || !who) return null;
    return {
      params: { subscriptions: [{ name: nameRef(channel.key) }], principals: [who.userId] },
      expect: administers(actor, channel) ? 'success' : 'either',
    };
  },
  learn({ k, step, actors }) {
    const who = actors.find((a) => a.userId === (step.params.principals as number[])[0]);
    if (who) byName(k, (step.params.subscriptions as Row[])[0]!.name)?.everIn?.add(who.name);
  },
  verify(v) {
    const channel = byName(v.k, (v.step.params.subscriptions as Row[])[0]!.name);
    const who = v.actors.find((a) => a.userId === (v.step.params.principals as number[])[0]);
    if (channel && who) expectSubscribed(v, who, channel, true);
    return Promise.resolve();
  },
};

/** An administrator unsubscribes another actor (spec §4.8: any user, any channel). */
export const unsubscribeOthers: Template = {
  name: 'unsubscribe-others',
  operation: 'unsubscribe',
  weight: 1,
  valid({ k, actor, actors }, step) {
    const c = byName(k, (step.params.subscriptions as unknown[])[0]);
    const who = actors.find((a) => a.userId === (step.params.principals as number[])[0]);
    return c !== undefined && who !== undefined && !c.archived && isAdmin(actor) && subscribedTo(who).has(c.id);
  },
  plan({ k, actor, actors, choice }) {
    const channel = pick(
      k.channels.filter((c) => !c.archived),
      choice.a,
      choice.focus,
    );
    const who = channel
      ? pick(
          actors.filter((a) => a !== actor && subscribedTo(a).has(channel.id)),
          choice.b,
        )
      : null;
    if (!channel || !who) return null;
    return { params: { subscriptions: [nameRef(channel.key)], principals: [who.userId] }, expect: isAdmin(actor) ? 'success' : 'either' };
  },
  verify(v) {
    const channel = byName(v.k, (v.step.params.subscriptions as unknown[])[0]);
    const who = v.actors.find((a) => a.userId === (v.step.params.principals as number[])[0]);
    if (channel && who) expectSubscribed(v, who, channel, false);
    return Promise.resolve();
  },
};

/** The channel as its subscribers' register states read it. */
function verifyChannel(v: VerifyContext, channel: KnownChannel, field: string, value: unknown): Promise<void> {
  for (const a of v.actors) {
    const row = ((a.state.subscriptions ?? []) as Row[]).find((r) => r.stream_id === channel.id);
    if (row && row[field] !== value)
      v.fail(
        `${channel.key}'s ${field} was set to ${JSON.stringify(value)}, ${a.name}'s register reads ${JSON.stringify(row[field])}`,
        a.name,
        row,
      );
  }
  return Promise.resolve();
}

export const updateDescription: Template = {
  name: 'update-channel-description',
  operation: 'update-stream',
  weight: 1,
  plan({ k, actor, choice, n }) {
    const channel = pick(
      k.channels.filter((c) => !c.archived),
      choice.a,
      choice.focus,
    );
    if (!channel) return null;
    return {
      pathParams: { stream_id: ref(channel.key) },
      params: { description: `explore ${n}` },
      expect: administers(actor, channel) ? 'success' : 'either',
    };
  },
  verify: (v) => verifyChannel(v, pathChannel(v.k, v.step), 'description', v.step.params.description),
};

/** Public ↔ private; a private channel of explore's always shares its history with subscribers. */
export const updatePrivacy: Template = {
  name: 'update-channel-privacy',
  operation: 'update-stream',
  weight: 1,
  valid: ({ k, actor }, step) => {
    const c = pathChannel(k, step);
    return !c.archived && administers(actor, c) && c.private !== step.params.is_private;
  },
  plan({ k, actor, choice }) {
    const channel = pick(
      k.channels.filter((c) => !c.archived),
      choice.a,
      choice.focus,
    );
    if (!channel) return null;
    return {
      pathParams: { stream_id: ref(channel.key) },
      params: { is_private: !channel.private, history_public_to_subscribers: true },
      // Changing a private channel's permissions needs an administrator subscribed to it (spec §4.16).
      expect: administers(actor, channel) ? 'success' : 'either',
    };
  },
  learn({ k, step }) {
    const channel = k.channel(step.path.match(/\{(c\d+)\}/)![1]!);
    if (!channel) return;
    k.settle();
    channel.wasPrivate = channel.private;
    channel.private = step.params.is_private === true;
  },
  verify: (v) => verifyChannel(v, pathChannel(v.k, v.step), 'invite_only', v.step.params.is_private),
};

/** An administrator archives one of the sequence's channels, while another stays for the steps after it. */
export const archiveChannel: Template = {
  name: 'archive-channel',
  operation: 'archive-stream',
  weight: 1,
  valid: ({ k, actor }, step) => !pathChannel(k, step).archived && administers(actor, pathChannel(k, step)),
  plan({ k, actor, choice }) {
    const live = k.channels.filter((c) => !c.archived);
    if (live.length < 2) return null;
    const channel = pick(live, choice.a, choice.focus)!;
    return { pathParams: { stream_id: ref(channel.key) }, params: {}, expect: administers(actor, channel) ? 'success' : 'either' };
  },
  learn({ k, step }) {
    const channel = k.channel(step.path.match(/\{(c\d+)\}/)![1]!);
    if (channel) channel.archived = true;
  },
  async verify({ k, step, actor, fail }) {
    const channel = k.channel(step.path.match(/\{(c\d+)\}/)![1]!)!;
    const read = await actor.call('GET', '/api/v1/streams', { exclude_archived: false, include_all: true });
    const row = ((read.body.streams ?? []) as Row[]).find((r) => r.stream_id === channel.id);
    if (row && row.is_archived !== true) fail(`${channel.key} was archived, and the channel list reads it unarchived`, actor.name, row);
  },
};

/**
 * The reference answers "No such topic" unless the caller received a message in it (a subscriber who joined
 * later has none), so only such topics are drawn.
 */
function receivedTopics(k: Knowledge, actor: string, channelKey: string): string[] {
  return [
    ...new Set(
      k
        .liveMessages()
        .filter((m) => m.channel === channelKey && m.receivedBy?.has(actor))
        .map((m) => m.topic),
    ),
  ];
}

export const markTopicRead: Template = {
  name: 'mark-topic-as-read',
  operation: 'mark-topic-as-read',
  weight: 1,
  plan({ k, actor, choice }) {
    const subscribed = subscribedTo(actor);
    const channel = pick(
      k.channels.filter((c) => subscribed.has(c.id)),
      choice.a,
      choice.focus,
    );
    const topic = channel
      ? pick(receivedTopics(k, actor.name, channel.key), choice.b, choice.focus, (t) => topicKey(channel.key, t))
      : null;
    if (!channel || topic === null) return null;
    // An archived channel's messages are the server's call (the mock refuses them as an invalid channel).
    return { params: { stream_id: ref(channel.key), topic_name: topic }, expect: channel.archived ? 'either' : 'success' };
  },
  valid({ k, actor }, step) {
    const key = (step.params.stream_id as { $ref: string }).$ref;
    const channel = k.channel(key);
    return (
      channel !== undefined &&
      subscribedTo(actor).has(channel.id) &&
      receivedTopics(k, actor.name, key).includes(String(step.params.topic_name))
    );
  },
};

export const CHANNEL_TEMPLATES: Template[] = [
  subscribe,
  unsubscribe,
  subscribeOthers,
  unsubscribeOthers,
  updateDescription,
  updatePrivacy,
  archiveChannel,
  markTopicRead,
];
