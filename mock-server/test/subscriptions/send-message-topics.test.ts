import { beforeAll, describe, expect, it } from 'vitest';
import { error, freshRealm, send, tables, useTestRealm, type Creds } from '../helpers/harness.js';
import { subscribe } from './support.js';

/**
 * Topic rules of POST /api/v1/messages (send-message companion; spec §1 "Topic names", §3 topics_policy,
 * §9 levels 334 and 370; reference §1 "Topics"):
 * - below level 334 the empty topic does not exist: "" (and the display name `general chat`, read as "")
 *   is refused;
 * - `general chat` always, and `(no topic)` from level 370, are read as "";
 * - a channel's topics_policy decides: disable_empty_topic (59) refuses "", empty_topic_only (58)
 *   refuses anything else, inherit (51) follows the realm default (allow_empty_topic in the demo).
 * Every case sends a new message, so each level gets its own realm.
 */

const LEVELS = [333, 334, 369, 370, 412] as const;
type Level = (typeof LEVELS)[number];

// No shared realm to restore: every case sends a message, so each level gets a realm of its own.
const env = useTestRealm({ realm: 'demo' });
const realms = {} as Record<Level, { realm: string; who: Creds }>;
beforeAll(async () => {
  for (const level of LEVELS) realms[level] = await freshRealm(env.server, level);
});

const EMPTY_REFUSED_OLD = error("Topic can't be empty!");
const EMPTY_REFUSED_BY_CHANNEL = error('Sending messages to the general chat is not allowed in this channel.');
const ONLY_EMPTY = error('Only the general chat topic is allowed in this channel.');

/** What a topic parameter becomes: the stored topic, or the refusal. */
type Expect = { stored: string } | { refused: Record<string, unknown> };
const stored = (topic: string): Expect => ({ stored: topic });
const refused = (body: Record<string, unknown>): Expect => ({ refused: body });

/** The cases of one level and channel, as topic parameter → what it becomes, in the table's order. */
const at = (level: Level, streamId: number, topics: Record<string, Expect>) =>
  Object.entries(topics).map(([topic, outcome]) => [level, streamId, topic, outcome] as const);

const CASES = [
  // Level 333: no empty topic yet.
  ...at(333, 51, {
    '': refused(EMPTY_REFUSED_OLD),
    'general chat': refused(EMPTY_REFUSED_OLD),
    '(no topic)': stored('(no topic)'),
    lunch: stored('lunch'),
  }),
  // Level 334: "" is a topic; (no topic) still a literal name.
  ...at(334, 51, { '': stored(''), 'general chat': stored(''), '(no topic)': stored('(no topic)') }),
  ...at(369, 51, { '(no topic)': stored('(no topic)'), '  general chat  ': stored('') }),
  // Level 370: (no topic) is the empty topic too.
  ...at(370, 51, { '(no topic)': stored(''), '': stored('') }),
  ...at(412, 51, { '(no topic)': stored(''), '   ': stored(''), '  padded  ': stored('padded') }),
  // disable_empty_topic (59): every spelling of the empty topic is refused.
  ...at(412, 59, {
    '': refused(EMPTY_REFUSED_BY_CHANNEL),
    'general chat': refused(EMPTY_REFUSED_BY_CHANNEL),
    '(no topic)': refused(EMPTY_REFUSED_BY_CHANNEL),
    tickets: stored('tickets'),
  }),
  ...at(369, 59, { '(no topic)': stored('(no topic)') }),
  // empty_topic_only (58): only the empty topic.
  ...at(412, 58, { '': stored(''), 'general chat': stored(''), '(no topic)': stored(''), chatter: refused(ONLY_EMPTY) }),
  ...at(369, 58, { '(no topic)': refused(ONLY_EMPTY) }),
];

describe('topic rules of sending (§1, §3, §9)', () => {
  it.each(CASES)('level %i, channel %i, topic %j', async (level, streamId, topic, expectation) => {
    const { realm, who } = realms[level];
    const res = await send(env.server, who.member!, { type: 'stream', to: String(streamId), topic, content: 'topic check' });
    if ('refused' in expectation) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expectation.refused);
    } else {
      expect(res.status).toBe(200);
      const message = tables(env.server, realm).messages[String(res.body.id)];
      expect(message?.subject).toBe(expectation.stored);
      expect(message?.stream_id).toBe(streamId);
    }
  });

  it('follows the realm default for a channel that inherits it, as a new channel does (§3)', async () => {
    const { realm, who } = await freshRealm(env.server);
    expect((await subscribe(env.server, who.member!, ['new place'])).status).toBe(200);
    const channel = Object.values(tables(env.server, realm).channels).find((c) => c.name === 'new place')!;
    expect(channel.topics_policy).toBe('inherit');
    // The demo realm's default is allow_empty_topic.
    const res = await send(env.server, who.member!, {
      type: 'stream',
      to: String(channel.stream_id),
      topic: '',
      content: 'empty topic welcome',
    });
    expect(res.status).toBe(200);
    expect(tables(env.server, realm).messages[String(res.body.id)]?.subject).toBe('');
  });

  it('truncates a topic longer than 60 characters (reference §1, max_topic_length)', async () => {
    const { realm, who } = realms[412];
    const res = await send(env.server, who.member!, { type: 'stream', to: '51', topic: 'x'.repeat(75), content: 'long topic' });
    expect(res.status).toBe(200);
    expect(tables(env.server, realm).messages[String(res.body.id)]?.subject).toBe('x'.repeat(60));
  });

  it('ignores the topic of a direct message (stored empty)', async () => {
    const { realm, who } = realms[412];
    const res = await send(env.server, who.member!, { type: 'direct', to: `[${who.member_2!.user_id}]`, topic: 'ignored', content: 'hi' });
    expect(res.status).toBe(200);
    expect(tables(env.server, realm).messages[String(res.body.id)]?.subject).toBe('');
  });
});
