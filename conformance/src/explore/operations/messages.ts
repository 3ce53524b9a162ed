import type { ExploreActor } from '../actors.js';
import { ref, type Knowledge, type KnownMessage } from '../knowledge.js';
import type { Step } from '../types.js';
import { liveChannelsOf, maySeeChannel, maySeeMessage, subscribedTo, visibleMessages } from '../visibility.js';
import { pathMessage, verifyMessageReads } from './reads.js';
import { pick, topicKey, type Template } from './template.js';

/**
 * Steps on messages (companion tier: sending, editing and moving are the reference server's operations).
 * Topics are drawn from those in use, so moves and sends meet the same topics.
 */

export const TOPICS = ['alpha', 'beta', 'gamma', 'delta'];
/** An ID no sequence makes (the document's integer range): a documented error, never a 500. */
export const NO_SUCH_ID = 2_000_000_000;

export const sendChannelMessage: Template = {
  name: 'send-channel-message',
  operation: 'send-message',
  weight: 6,
  plan({ k, actor, choice, n }) {
    const channel = pick(liveChannelsOf(actor, k), choice.a, choice.focus);
    if (!channel) return null;
    const topics = k.topicsOf(channel.key);
    // Following on, the topic the step before touched; else one in use or one of the usual few.
    const near = topics.find((t) => choice.focus?.includes(topicKey(channel.key, t)));
    const topic = near ?? (choice.flag ? (pick(topics, choice.b) ?? TOPICS[0]!) : TOPICS[choice.b % TOPICS.length]!);
    return {
      params: { type: 'stream', to: ref(channel.key), topic, content: `explore ${n}: hello ${topic}` },
      expect: 'success',
      binds: 'm',
    };
  },
  valid({ k, actor }, step) {
    const channel = k.channel((step.params.to as { $ref: string }).$ref);
    return channel !== undefined && !channel.archived && subscribedTo(actor).has(channel.id);
  },
  learn({ k, step, bound, actor }) {
    const channel = k.channels.find((c) => c.key === (step.params.to as { $ref: string }).$ref)!;
    k.messages.push({
      key: bound!,
      id: k.idOf(bound!)!,
      sender: actor.name,
      channel: channel.key,
      topic: String(step.params.topic),
      participants: [],
      content: String(step.params.content),
      deleted: false,
      reactions: new Set(),
    });
  },
  verify: (v) => verifyMessageReads(v, [v.k.message(v.bound!)!]),
};

export const sendDirectMessage: Template = {
  name: 'send-direct-message',
  operation: 'send-message',
  weight: 3,
  plan({ actor, actors, choice, n }) {
    const others = actors.filter((a) => a !== actor);
    const to = choice.flag ? others.slice(0, 2) : [others[choice.a % others.length]!];
    if (to.length === 0) return null;
    return {
      params: { type: 'direct', to: to.map((a) => a.userId), content: `explore ${n}: a direct message` },
      // Guests and bots may be refused by the realm's direct-message policy.
      expect: 'either',
      binds: 'm',
    };
  },
  learn({ k, step, bound, actor, actors }) {
    const ids = step.params.to as number[];
    k.messages.push({
      key: bound!,
      id: k.idOf(bound!)!,
      sender: actor.name,
      channel: null,
      topic: '',
      participants: [actor.name, ...actors.filter((a) => ids.includes(a.userId)).map((a) => a.name)],
      content: String(step.params.content),
      deleted: false,
      reactions: new Set(),
    });
  },
  verify: (v) => verifyMessageReads(v, [v.k.message(v.bound!)!]),
};

export const editContent: Template = {
  name: 'edit-content',
  operation: 'update-message',
  weight: 3,
  plan({ k, actor, choice, n }) {
    if (choice.invalid) {
      return {
        pathParams: { message_id: NO_SUCH_ID },
        params: { content: `explore ${n}: edited` },
        expect: 'success',
        invalid: { what: 'a message that does not exist', status: 400, code: 'BAD_REQUEST' },
      };
    }
    const own = k.liveMessages().filter((m) => m.sender === actor.name);
    const m = pick(own, choice.a, choice.focus);
    if (!m) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { content: `explore ${n}: edited` }, expect: 'either' };
  },
  learn({ k, step }) {
    const m = pathMessage(k, step);
    if (m) m.content = String(step.params.content);
  },
  verify: (v) => verifyMessageReads(v, [pathMessage(v.k, v.step)!]),
};

/** The propagate modes a move draws from. */
export const MODES = ['change_one', 'change_later', 'change_all'] as const;

export const moveTopic: Template = {
  name: 'move-topic',
  operation: 'update-message',
  weight: 3,
  plan({ k, actor, choice }) {
    const m = pick(
      visibleMessages(actor, k).filter((x) => x.channel !== null),
      choice.a,
      choice.focus,
    );
    if (!m) return null;
    const topic = TOPICS[choice.b % TOPICS.length]!;
    if (topic === m.topic) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { topic, propagate_mode: MODES[choice.c % MODES.length]! }, expect: 'either' };
  },
  learn: (l) => learnMove(l.k, l.step, l.actor, l.actors),
  verify: (v) => verifyMessageReads(v, moving(v.k, v.step, v.actor)),
};

/**
 * The messages a move takes (update-message with a topic or a channel): the one named, and with
 * change_later those after it in its topic, with change_all every message of its topic — of those the
 * mover can see (one who left a channel moves only what it still holds there).
 */
export function moving(k: Knowledge, step: Step, mover?: ExploreActor): KnownMessage[] {
  const m = pathMessage(k, step);
  if (!m) return [];
  const mode = step.params.propagate_mode ?? 'change_one';
  if (mode === 'change_one' || m.channel === null) return [m];
  const inTopic = k
    .inTopic(m.channel, m.topic)
    .filter((x) => (mode === 'change_all' || x.id >= m.id) && (!mover || maySeeMessage(mover, x, k) === true));
  return [m, ...inTopic.filter((x) => x !== m)];
}

/** A move as the knowledge follows it: the moved messages' topic and channel. */
export function learnMove(k: Knowledge, step: Step, mover?: ExploreActor, actors: readonly ExploreActor[] = []): void {
  const moved = moving(k, step, mover);
  const to = step.params.stream_id;
  const channel = to && typeof to === 'object' && '$ref' in to ? k.channel(String(to.$ref)) : undefined;
  if (channel) k.settle();
  for (const x of moved) {
    if (channel) x.movedFrom = x.channel;
    // Moved to another channel, a message is the destination's: those who received it but cannot read
    // there lose it (the reference deletes their copies and tells them the message is gone); those who can
    // keep their copy. What they held before the move still judges what they were sent about it before.
    if (channel && channel.key !== x.channel) {
      x.receivedBefore = x.receivedBy;
      const keeps = actors.filter((a) => x.receivedBy?.has(a.name) && maySeeChannel(a, channel) === true).map((a) => a.name);
      x.receivedBy = keeps.length > 0 ? new Set(keeps) : undefined;
    }
    if (typeof step.params.topic === 'string') x.topic = step.params.topic;
    if (channel) x.channel = channel.key;
  }
}

export const addReaction: Template = {
  name: 'add-reaction',
  operation: 'add-reaction',
  weight: 2,
  plan({ k, actor, choice }) {
    const m = pick(visibleMessages(actor, k), choice.a, choice.focus);
    if (!m) return null;
    if (choice.invalid)
      return {
        pathParams: { message_id: ref(m.key) },
        params: { emoji_name: 'no_such_emoji_explore' },
        expect: 'success',
        invalid: { what: 'an emoji that does not exist', status: 400, code: 'BAD_REQUEST' },
      };
    const emoji = choice.flag ? 'smile' : 'octopus';
    if (m.reactions.has(`${actor.name} ${emoji}`)) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { emoji_name: emoji }, expect: 'either' };
  },
  learn({ k, step, actor }) {
    pathMessage(k, step)?.reactions.add(`${actor.name} ${String(step.params.emoji_name)}`);
  },
};

export const MESSAGE_TEMPLATES: Template[] = [sendChannelMessage, sendDirectMessage, editContent, moveTopic, addReaction];
