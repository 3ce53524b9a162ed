import { pathKey, ref } from '../knowledge.js';
import { subscribedTo, visibleMessages } from '../visibility.js';
import { pick, type Template } from './template.js';

/**
 * Steps on messages (companion tier: sending, editing and moving are the reference server's operations).
 * Topics are drawn from those in use, so moves and sends meet the same topics.
 */

const TOPICS = ['alpha', 'beta', 'gamma', 'delta'];
/** An ID no sequence makes (the document's integer range): a documented error, never a 500. */
export const NO_SUCH_ID = 2_000_000_000;

export const sendChannelMessage: Template = {
  name: 'send-channel-message',
  operation: 'send-message',
  weight: 6,
  plan({ k, actor, choice, n }) {
    const subscribed = subscribedTo(actor);
    const channel = pick(
      k.channels.filter((c) => !c.archived && subscribed.has(c.id)),
      choice.a,
    );
    if (!channel) return null;
    const topic = choice.flag ? (pick(k.topicsOf(channel.key), choice.b) ?? TOPICS[0]!) : TOPICS[choice.b % TOPICS.length]!;
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
  async verify({ k, bound, actor, fail }) {
    const m = k.message(bound!)!;
    const read = await actor.call('GET', `/api/v1/messages/${m.id}`, { apply_markdown: false });
    const msg = read.body.message as Record<string, unknown> | undefined;
    if (read.status !== 200 || !msg)
      return fail(`the sender cannot read message ${m.key} it just sent (${read.status})`, actor.name, read.body);
    if (msg.content !== m.content || msg.subject !== m.topic)
      fail(
        `message ${m.key} reads back as ${JSON.stringify([msg.subject, msg.content])}, sent ${JSON.stringify([m.topic, m.content])}`,
        actor.name,
      );
  },
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
    const m = pick(own, choice.a);
    if (!m) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { content: `explore ${n}: edited` }, expect: 'either' };
  },
  learn({ k, step }) {
    const m = k.message(pathKey(step.path) ?? '');
    if (m) m.content = String(step.params.content);
  },
  async verify({ k, step, actor, fail }) {
    const m = k.message(pathKey(step.path) ?? '')!;
    const read = await actor.call('GET', `/api/v1/messages/${m.id}`, { apply_markdown: false });
    const content = (read.body.message as Record<string, unknown> | undefined)?.content;
    if (content !== m.content)
      fail(`message ${m.key} reads back as ${JSON.stringify(content)} after its edit to ${JSON.stringify(m.content)}`, actor.name);
  },
};

const MODES = ['change_one', 'change_later', 'change_all'] as const;

export const moveTopic: Template = {
  name: 'move-topic',
  operation: 'update-message',
  weight: 3,
  plan({ k, actor, choice }) {
    const m = pick(
      visibleMessages(actor, k).filter((x) => x.channel !== null),
      choice.a,
    );
    if (!m) return null;
    const topic = TOPICS[choice.b % TOPICS.length]!;
    if (topic === m.topic) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { topic, propagate_mode: MODES[choice.c % MODES.length]! }, expect: 'either' };
  },
  learn({ k, step }) {
    const m = k.message(pathKey(step.path) ?? '');
    if (!m) return;
    const mode = step.params.propagate_mode;
    const moved = k
      .liveMessages()
      .filter(
        (x) =>
          x === m || (mode !== 'change_one' && x.channel === m.channel && x.topic === m.topic && (mode === 'change_all' || x.id >= m.id)),
      );
    for (const x of moved) x.topic = String(step.params.topic);
  },
};

export const addReaction: Template = {
  name: 'add-reaction',
  operation: 'add-reaction',
  weight: 2,
  plan({ k, actor, choice }) {
    const m = pick(visibleMessages(actor, k), choice.a);
    if (!m) return null;
    const emoji = choice.flag ? 'smile' : 'octopus';
    if (m.reactions.has(`${actor.name} ${emoji}`)) return null;
    return { pathParams: { message_id: ref(m.key) }, params: { emoji_name: emoji }, expect: 'either' };
  },
  learn({ k, step, actor }) {
    k.message(pathKey(step.path) ?? '')?.reactions.add(`${actor.name} ${String(step.params.emoji_name)}`);
  },
};

export const markRead: Template = {
  name: 'mark-read',
  operation: 'update-message-flags',
  weight: 2,
  plan({ k, actor, choice }) {
    const m = pick(visibleMessages(actor, k), choice.a);
    if (!m) return null;
    const flag = choice.c % 2 === 0 ? 'read' : 'starred';
    return { params: { messages: [ref(m.key)], op: choice.flag ? 'remove' : 'add', flag }, expect: 'either' };
  },
};

export const MESSAGE_TEMPLATES: Template[] = [sendChannelMessage, sendDirectMessage, editContent, moveTopic, addReaction, markRead];
