import { ref } from '../knowledge.js';
import type { StepValue } from '../types.js';
import { liveChannelsOf, maySeeMessage, visibleMessages } from '../visibility.js';
import { learnMove, MODES, moving, TOPICS } from './messages.js';
import { pathMessage, verifyMessageReads } from './reads.js';
import { pick, type Template } from './template.js';

/**
 * Steps that move, resolve and delete messages and take reactions back (companion tier). A move to
 * another channel changes who may see the moved messages: the reads after it are judged per actor.
 */

/** The reference's prefix of a resolved topic. */
export const RESOLVED = '✔ ';

export const moveToChannel: Template = {
  name: 'move-to-channel',
  operation: 'update-message',
  weight: 2,
  plan({ k, actor, choice }) {
    const m = pick(
      visibleMessages(actor, k).filter((x) => x.channel !== null && !k.channel(x.channel)?.archived),
      choice.a,
      choice.focus,
    );
    const to = m
      ? pick(
          liveChannelsOf(actor, k).filter((c) => c.key !== m.channel),
          choice.b,
          choice.focus,
        )
      : null;
    if (!m || !to) return null;
    const topic: Record<string, StepValue> = choice.flag ? { topic: TOPICS[choice.c % TOPICS.length]! } : {};
    // Moving between channels depends on realm and channel settings the world file does not state.
    return {
      pathParams: { message_id: ref(m.key) },
      params: { stream_id: ref(to.key), ...topic, propagate_mode: MODES[choice.c % MODES.length]! },
      expect: 'either',
    };
  },
  learn: (l) => learnMove(l.k, l.step, l.actor, l.actors),
  verify: (v) => verifyMessageReads(v, moving(v.k, v.step, v.actor)),
};

/** Resolving a topic renames it with the "✔ " prefix (every message of it); unresolving takes the prefix away. */
export const resolveTopic: Template = {
  name: 'resolve-topic',
  operation: 'update-message',
  weight: 2,
  plan({ k, actor, choice }) {
    const m = pick(
      visibleMessages(actor, k).filter((x) => x.channel !== null && x.topic !== '' && !k.channel(x.channel)?.archived),
      choice.a,
      choice.focus,
    );
    if (!m) return null;
    const topic = m.topic.startsWith(RESOLVED) ? m.topic.slice(RESOLVED.length) : `${RESOLVED}${m.topic}`;
    if (topic.trim() === '') return null;
    return { pathParams: { message_id: ref(m.key) }, params: { topic, propagate_mode: 'change_all' }, expect: 'either' };
  },
  learn: (l) => learnMove(l.k, l.step, l.actor, l.actors),
  verify: (v) => verifyMessageReads(v, moving(v.k, v.step, v.actor)),
};

/**
 * An administrator deletes a message it can see (the reference lets administrators delete any message);
 * anyone else may delete their own only where the realm lets them.
 */
export const deleteMessage: Template = {
  name: 'delete-message',
  operation: 'delete-message',
  weight: 1,
  plan({ k, actor, actors, choice }) {
    const admin = actor === actors[0];
    const m = pick(
      visibleMessages(actor, k).filter((x) => admin || x.sender === actor.name),
      choice.a,
      choice.focus,
    );
    if (!m) return null;
    const archived = m.channel !== null && k.channel(m.channel)?.archived;
    return { pathParams: { message_id: ref(m.key) }, params: {}, expect: admin && !archived ? 'success' : 'either' };
  },
  learn({ k, step, actors }) {
    const m = pathMessage(k, step);
    if (!m) return;
    m.deleted = true;
    m.deletedUnseenBy = new Set(actors.filter((a) => maySeeMessage(a, m, k) !== true).map((a) => a.name));
  },
  verify: (v) => verifyMessageReads(v, [pathMessage(v.k, v.step)!]),
};

/** The actor takes back a reaction it added. */
export const removeReaction: Template = {
  name: 'remove-reaction',
  operation: 'remove-reaction',
  weight: 2,
  valid({ k, actor }, step) {
    const m = pathMessage(k, step);
    return (
      m !== undefined &&
      !m.deleted &&
      maySeeMessage(actor, m, k) === true &&
      m.reactions.has(`${actor.name} ${String(step.params.emoji_name)}`)
    );
  },
  plan({ k, actor, choice }) {
    const mine = visibleMessages(actor, k).flatMap((m) =>
      [...m.reactions].filter((r) => r.startsWith(`${actor.name} `)).map((r) => [m, r.slice(actor.name.length + 1)] as const),
    );
    const found = pick(mine, choice.a, choice.focus);
    if (!found) return null;
    const [m, emoji] = found;
    const archived = m.channel !== null && k.channel(m.channel)?.archived;
    return { pathParams: { message_id: ref(m.key) }, params: { emoji_name: emoji }, expect: archived ? 'either' : 'success' };
  },
  learn({ k, step, actor }) {
    pathMessage(k, step)?.reactions.delete(`${actor.name} ${String(step.params.emoji_name)}`);
  },
  async verify({ k, step, actor, fail }) {
    const m = pathMessage(k, step)!;
    const read = await actor.call('GET', `/api/v1/messages/${m.id}`);
    const reactions = ((read.body.message as Record<string, unknown> | undefined)?.reactions ?? []) as Record<string, unknown>[];
    if (reactions.some((r) => r.user_id === actor.userId && r.emoji_name === step.params.emoji_name))
      fail(
        `${actor.name} removed its ${String(step.params.emoji_name)} reaction from ${m.key}, and reading it still shows it`,
        actor.name,
        reactions,
      );
  },
};

export const MESSAGE_MOVE_TEMPLATES: Template[] = [moveToChannel, resolveTopic, deleteMessage, removeReaction];
