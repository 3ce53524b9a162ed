import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { MessageRow, RealmState } from '../../src/store/state.js';
import { call, startTestServer } from '../helpers/test-server.js';
import {
  ROLES,
  WORLD,
  channelId,
  fetchMessage,
  freshRealm,
  messages,
  observe,
  pick,
  putRow,
  receivedFlags,
  report,
  tables,
  userOf,
  type Creds,
} from './support.js';

/**
 * What a successful report does (spec §4.13; reference §4.13): success with no extra field; the
 * notification bot posts one message in the moderation request channel, topic `{sender} moderation`
 * (truncated to 60 characters), naming reporter and sender with silent mentions, the reason as a quote
 * `**{label}**. {description}` and the original Markdown in a spoiler; the only events are that
 * message's, to the channel's subscribers.
 */

let server: MockServer;
let realm: string;
let who: Creds;
let t: RealmState;
beforeAll(async () => {
  server = await startTestServer();
  ({ realm, who } = await freshRealm(server));
  server.control.saveSnapshot(realm, 'pristine');
});
// Every test reports into the same realm: start each from the pristine copy.
beforeEach(async () => {
  await server.control.restoreSnapshot(realm, 'pristine');
  t = tables(server, realm);
});
afterAll(() => server.close());

const uid = (role: string) => WORLD.credentials[role]!.user_id;
const MODERATION = channelId('moderation');
const SUCCESS = { result: 'success', msg: '' };
const publicMessageOf = (role: string) =>
  pick(t, `public message by ${role}`, (m) => m.stream_id === channelId('public') && m.sender_id === uid(role));
const newest = (): MessageRow => messages(t).at(-1)!;
const silent = (userId: number) => `@_**${userOf(t, userId).full_name}|${userId}**`;

/** The `>` quote of a post (its lines without the markers), or the fenced block opened by ```` ```{kind} ````. */
function block(content: string, kind: 'quote' | 'spoiler'): string | undefined {
  if (kind === 'quote') {
    const lines = content.split('\n');
    const start = lines.findIndex((l) => l.startsWith('>'));
    if (start < 0) return undefined;
    const end = lines.findIndex((l, i) => i > start && !l.startsWith('>'));
    return lines
      .slice(start, end < 0 ? undefined : end)
      .map((l) => l.replace(/^> ?/, ''))
      .join('\n');
  }
  const match = new RegExp(`^(\`{3,})${kind}[^\\n]*\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(content);
  return match?.[2];
}

/** Reports, checks the response and that exactly one message appeared, and returns that message. */
async function reportOne(role: string, m: MessageRow, form: Record<string, string>): Promise<MessageRow> {
  const before = messages(t).length;
  const res = await report(server, who[role]!, m.id, form);
  expect(res.status).toBe(200);
  expect(res.body).toEqual(SUCCESS);
  expect(messages(t).length).toBe(before + 1);
  return newest();
}

function expectReportOf(posted: MessageRow, reporter: string, m: MessageRow, quote: string) {
  const sender = userOf(t, m.sender_id);
  expect(posted).toMatchObject({
    type: 'stream',
    stream_id: t.realm.realm.moderation_request_channel_id,
    sender_id: t.realm.realm.notification_bot_id,
  });
  expect(posted.stream_id).toBe(MODERATION);
  expect(posted.subject).toBe(`${sender.full_name} moderation`);
  const [firstLine] = posted.content.split('\n');
  expect(firstLine).toContain(silent(uid(reporter)));
  expect(firstLine).toContain(silent(m.sender_id));
  expect(block(posted.content, 'quote')).toBe(quote);
  expect(block(posted.content, 'spoiler')).toBe(m.content);
}

describe('a successful report (spec §4.13)', () => {
  it.each([
    ['spam', 'Spam', 'Lots of links.'],
    ['harassment', 'Harassment', 'Boromir is bullying Frodo.'],
    ['inappropriate', 'Inappropriate content', 'Not for work.'],
    ['norms', 'Violates community norms', 'See the code of conduct.'],
    ['other', 'Other reason', 'Something else entirely.'],
  ])('report_type %s: the notification bot posts the label %j and the description', async (type, label, description) => {
    const m = publicMessageOf('member_2');
    const posted = await reportOne('member', m, { report_type: type, description });
    expectReportOf(posted, 'member', m, `**${label}**. ${description}`);
  });

  it('without a description (optional except for other) the quote holds the label alone', async () => {
    const m = publicMessageOf('member_2');
    const posted = await reportOne('member', m, { report_type: 'spam' });
    expect(block(posted.content, 'quote')).toMatch(/^\*\*Spam\*\*\.\s*$/);
  });

  it.each([
    ['1000 ASCII characters', 'd'.repeat(1000)],
    ['1000 characters outside the BMP (2000 UTF-16 units)', '😀'.repeat(1000)],
  ])('a description of %s is accepted and quoted whole', async (_label, description) => {
    const m = publicMessageOf('member_2');
    const posted = await reportOne('member', m, { report_type: 'norms', description });
    expect(block(posted.content, 'quote')).toBe(`**Violates community norms**. ${description}`);
  });

  it('the report can be fetched by moderators with the same fields as any channel message', async () => {
    const m = publicMessageOf('member_2');
    const posted = await reportOne('member', m, { report_type: 'spam', description: 'x' });
    const res = await fetchMessage(server, who.moderator!, posted.id, { apply_markdown: 'false' });
    expect(res.body).toMatchObject({
      message: {
        id: posted.id,
        stream_id: MODERATION,
        display_recipient: WORLD.channels.moderation!.name,
        sender_id: WORLD.realm.notification_bot.user_id,
        subject: posted.subject,
        content: posted.content,
      },
    });
    // The reporter is not subscribed to the private moderation channel: the report stays hidden from them.
    expect((await fetchMessage(server, who.member!, posted.id)).status).toBe(400);
  });
});

describe('what can be reported', () => {
  it('a public-channel message the reporter never received (reference §4.13), without delivering it to them', async () => {
    const m = pick(
      t,
      'public_2 message member_3 never received',
      (x) => x.stream_id === channelId('public_2') && receivedFlags(t, uid('member_3'), x.id) === undefined,
    );
    const posted = await reportOne('member_3', m, { report_type: 'spam' });
    expect(posted.subject).toBe(`${userOf(t, m.sender_id).full_name} moderation`);
    expect(block(posted.content, 'spoiler')).toBe(m.content);
    expect(receivedFlags(t, uid('member_3'), m.id)).toBeUndefined();
  });

  it.each([
    ['a message of an archived channel (readable, reference §4.3)', 'member_3', 'archived'],
    ['a web-public message, by a guest who is not subscribed', 'guest', 'web_public'],
  ])('%s', async (_label, reporter, kind) => {
    const m = pick(t, `${kind} message`, (x) => x.stream_id === channelId(kind) && receivedFlags(t, uid(reporter), x.id) === undefined);
    const posted = await reportOne(reporter, m, { report_type: 'inappropriate' });
    expectReportOf(posted, reporter, m, '**Inappropriate content**.');
  });

  it('a direct message the reporter received', async () => {
    const m = pick(
      t,
      'DM from member_2 to member',
      (x) => x.type === 'private' && x.sender_id === uid('member_2') && x.dm_user_ids!.includes(uid('member')),
    );
    const posted = await reportOne('member', m, { report_type: 'harassment', description: 'Rude.' });
    expectReportOf(posted, 'member', m, '**Harassment**. Rude.');
  });

  it('the topic is truncated to 60 characters for a long sender name', async () => {
    const m = publicMessageOf('member_2');
    const sender = userOf(t, m.sender_id);
    const longName = 'Maribel Alexandra Kunze-Wolff von Hohenstein und Lichtenberg-Ost';
    expect(`${longName} moderation`.length).toBeGreaterThan(60);
    await putRow(server, realm, 'users', sender.user_id, { ...sender, full_name: longName });
    const posted = await reportOne('member', m, { report_type: 'spam' });
    expect(posted.subject).toBe(`${longName} moderation`.slice(0, 60));
  });

  it('an original message containing a code fence stays whole inside the spoiler', async () => {
    const content = 'Look:\n```\nrm -rf /\n```\nand ````quad````';
    const sent = await call(server, 'POST', '/api/v1/messages', {
      as: who.member_2!,
      form: { type: 'stream', to: String(channelId('public')), topic: 'fences', content },
    });
    expect(sent.status).toBe(200);
    const m = t.messages[String(sent.body.id)]!;
    const posted = await reportOne('member', m, { report_type: 'other', description: 'Dangerous ``` advice' });
    expect(block(posted.content, 'spoiler')).toBe(content);
    expect(block(posted.content, 'quote')).toBe('**Other reason**. Dangerous ``` advice');
  });

  it('fences the original message or the description leave open cannot swallow the rest of the post', async () => {
    const content = 'Careful:\n~~~\nnever closed';
    const sent = await call(server, 'POST', '/api/v1/messages', {
      as: who.member_2!,
      form: { type: 'stream', to: String(channelId('public')), topic: 'fences', content },
    });
    const m = t.messages[String(sent.body.id)]!;
    const posted = await reportOne('member', m, { report_type: 'other', description: 'See below\n~~~' });
    // The spoiler holds the message, its open fence closed before the spoiler's own fence.
    expect(block(posted.content, 'spoiler')).toBe(`${content}\n~~~`);
    expect(posted.rendered_content).toMatch(/<div class="spoiler-content" aria-hidden="true">[\s\S]*never closed[\s\S]*<\/div><\/div>$/);
    expect(posted.rendered_content.match(/<blockquote>/g)).toHaveLength(1);
  });

  it('a message too long to quote whole is cut and marked, and the post stays within max_message_length', async () => {
    const content = 'x'.repeat(10_000);
    const sent = await call(server, 'POST', '/api/v1/messages', {
      as: who.member_2!,
      form: { type: 'stream', to: String(channelId('public')), topic: 'long', content },
    });
    const m = t.messages[String(sent.body.id)]!;
    const posted = await reportOne('member', m, { report_type: 'other', description: 'y'.repeat(1000) });
    expect(block(posted.content, 'spoiler')).toBe(`${'x'.repeat(8500)}\n[message truncated]`);
    expect([...posted.content].length).toBeLessThanOrEqual(10_000);
  });
});

describe('events (reference §4.13: only the message events of the post)', () => {
  const subscribersOf57 = () => ROLES.filter((r) => t.subscriptions[`${uid(r)}:${MODERATION}`]?.active);

  it('each moderation-channel subscriber gets exactly one message event; the reporter, the sender and everyone else nothing', async () => {
    const m = publicMessageOf('member_2');
    let postedId = 0;
    const events = await observe(server, who, ROLES, async () => {
      postedId = (await reportOne('member', m, { report_type: 'spam', description: 'x' })).id;
    });
    const subscribers = subscribersOf57();
    expect(subscribers).toEqual(['owner', 'administrator', 'moderator']);
    for (const role of ROLES) {
      const got = events[role]!;
      if (!subscribers.includes(role)) expect([role, got]).toEqual([role, []]);
      else {
        expect(got.map((e) => e.type)).toEqual(['message']);
        expect(got[0]!.message).toMatchObject({ id: postedId, stream_id: MODERATION, sender_id: WORLD.realm.notification_bot.user_id });
        // Unread for every moderator; silent mentions notify nobody.
        expect(got[0]!.flags).toEqual([]);
      }
    }
  });

  it('a reporter who moderates the channel gets the event too, not flagged as mentioned', async () => {
    const m = publicMessageOf('administrator');
    const events = await observe(server, who, ['moderator', 'administrator', 'member'], async () => {
      await reportOne('moderator', m, { report_type: 'norms' });
    });
    expect(events.moderator!.map((e) => [e.type, e.flags])).toEqual([['message', []]]);
    expect(events.administrator!.map((e) => [e.type, e.flags])).toEqual([['message', []]]);
    expect(events.member).toEqual([]);
    const posted = newest();
    expect(t.user_messages[String(posted.id)]!.flags[String(uid('administrator'))]).toEqual([]);
  });

  it('the report’s recipients are the moderation channel’s subscribers (and the bot as sender)', async () => {
    const posted = await reportOne('member', publicMessageOf('member_2'), { report_type: 'spam' });
    const receivers = Object.keys(t.user_messages[String(posted.id)]!.flags)
      .map(Number)
      .sort((a, b) => a - b);
    const subscribers = Object.values(t.subscriptions)
      .filter((s) => s.active && s.stream_id === MODERATION)
      .map((s) => s.user_id);
    // The bot is the sender; whether a sender holds a row of its own is not the report's business.
    expect(receivers.filter((id) => id !== WORLD.realm.notification_bot.user_id)).toEqual(subscribers.sort((a, b) => a - b));
  });
});
