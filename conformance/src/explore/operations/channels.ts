import { ref, type Knowledge } from '../knowledge.js';
import { subscribedTo } from '../visibility.js';
import { pick, type Template } from './template.js';

/** Steps on channels and subscriptions: joining and leaving explore's channels, changing their settings. */

export const subscribe: Template = {
  name: 'subscribe',
  operation: 'subscribe',
  weight: 2,
  plan({ k, actor, choice }) {
    const subscribed = subscribedTo(actor);
    const channel = pick(
      k.channels.filter((c) => !c.archived && !subscribed.has(c.id) && !c.private),
      choice.a,
    );
    if (!channel) return null;
    return { params: { subscriptions: [{ name: channel.name }] }, expect: 'either' };
  },
};

export const unsubscribe: Template = {
  name: 'unsubscribe',
  operation: 'unsubscribe',
  weight: 1,
  plan({ k, actor, choice }) {
    const subscribed = subscribedTo(actor);
    const channel = pick(
      k.channels.filter((c) => !c.archived && subscribed.has(c.id)),
      choice.a,
    );
    if (!channel) return null;
    return { params: { subscriptions: [channel.name] }, expect: 'success' };
  },
};

export const updateDescription: Template = {
  name: 'update-channel-description',
  operation: 'update-stream',
  weight: 1,
  plan({ k, choice, n }) {
    const channel = pick(
      k.channels.filter((c) => !c.archived),
      choice.a,
    );
    if (!channel) return null;
    return { pathParams: { stream_id: ref(channel.key) }, params: { description: `explore ${n}` }, expect: 'either' };
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
    );
    const topic = channel ? pick(receivedTopics(k, actor.name, channel.key), choice.b) : null;
    if (!channel || topic === null) return null;
    return { params: { stream_id: ref(channel.key), topic_name: topic }, expect: 'success' };
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

export const CHANNEL_TEMPLATES: Template[] = [subscribe, unsubscribe, updateDescription, markTopicRead];
