import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { eventsUntil, messageEvent, sendToChannel } from '../events/support.js';
import { openQueue, snapshotOf } from '../shared.js';

/**
 * Companion tier, compat-lookups: alert words and bot storage. Each scenario adds only words and keys
 * under a `ctx.unique()` name and removes them afterwards, so it owns its state on any server and never
 * depends on what another scenario left. Alert words are member's (member_2's only as the user who must
 * not be told), bot storage the bot's.
 */

const WORDS = '/api/v1/users/me/alert_words';
const STORAGE = '/api/v1/bot_storage';

const list = (reply: Reply): string[] => (Array.isArray(reply.body.alert_words) ? (reply.body.alert_words as string[]) : []);
const count = (words: string[], word: string) => words.filter((w) => w.toLowerCase() === word.toLowerCase()).length;

/** A word of this scenario's own (lower case, so its upper-case twin is a different spelling). */
function ownWord(ctx: ScenarioContext, label: string): string {
  const word = ctx.unique(label).toLowerCase();
  ctx.defer(() => ctx.as('member').delete(WORDS, { alert_words: [word] }));
  return word;
}

const addWords = scenario<string, { add: Reply; again: Reply; listed: Reply; snap: Reply }>({
  id: 'companion/compat-lookups/alert-words-add',
  title: 'adding alert words answers the whole list; a word present in another case is not added twice',
  rules: ['C.compat-lookups-8', 'C.compat-lookups-12'],
  requires: { roles: ['member'] },
  given: (ctx) => ownWord(ctx, 'alert'),
  when: async (ctx, word) => {
    const me = ctx.as('member');
    return {
      add: await me.post(WORDS, { alert_words: [word] }),
      again: await me.post(WORDS, { alert_words: [word.toUpperCase()] }),
      listed: await me.get(WORDS),
      snap: await snapshotOf(ctx, 'member', ['alert_words']),
    };
  },
  then(ctx, { add, again, listed, snap }, word) {
    ctx.expectSuccess('C.compat-lookups-8', add);
    ctx.check('C.compat-lookups-8', count(list(add), word) === 1, `the answer lists ${word} once`, add);
    ctx.check(
      'C.compat-lookups-8',
      count(list(again), word) === 1,
      `after adding ${word.toUpperCase()} the list still has ${word} once`,
      again,
    );
    ctx.check('C.compat-lookups-12', list(listed).includes(word), `GET lists ${word}`, listed);
    ctx.check('C.compat-lookups-12', list(snap).includes(word), `register's alert_words lists ${word}`, snap);
  },
});

const removeWords = scenario<string, Reply>({
  id: 'companion/compat-lookups/alert-words-remove',
  title: 'removing alert words matches any letter case and ignores words not in the list',
  rules: ['C.compat-lookups-9'],
  requires: { roles: ['member'] },
  async given(ctx) {
    const word = ownWord(ctx, 'gone');
    ctx.must(await ctx.as('member').post(WORDS, { alert_words: [word] }), 'add an alert word');
    return word;
  },
  when: (ctx, word) => ctx.as('member').delete(WORDS, { alert_words: [word.toUpperCase(), ctx.unique('never-added')] }),
  then(ctx, res, word) {
    ctx.expectSuccess('C.compat-lookups-9', res);
    ctx.check('C.compat-lookups-9', count(list(res), word) === 0, `${word} is no longer listed`, res);
  },
});

const tooLong = scenario<string, { res: Reply; after: Reply }>({
  id: 'companion/compat-lookups/alert-words-too-long',
  title: 'an alert word over 100 characters is refused and changes nothing',
  rules: ['C.compat-lookups-10'],
  requires: { roles: ['member'] },
  given: (ctx) => ownWord(ctx, 'long'),
  // A valid word beside the long one: a refused request adds neither (other scenarios may add words meanwhile).
  when: async (ctx, word) => ({
    res: await ctx.as('member').post(WORDS, { alert_words: [word, word + 'x'.repeat(101)] }),
    after: await ctx.as('member').get(WORDS),
  }),
  then(ctx, { res, after }, word) {
    ctx.expectError('C.compat-lookups-10', res, { status: 400, code: 'BAD_REQUEST' });
    ctx.check('C.compat-lookups-10', count(list(after), word) === 0, `${word}, sent with it, was not added`, after);
  },
});

const wordsEvent = scenario({
  id: 'companion/compat-lookups/alert-words-event',
  title: "a change of alert words sends alert_words with the whole list to the user's queue only",
  rules: ['C.compat-lookups-11'],
  requires: { roles: ['member', 'member_2'] },
  async when(ctx) {
    const mine = await openQueue(ctx, 'member', { event_types: ['alert_words'] });
    const other = await openQueue(ctx, 'member_2', { event_types: ['alert_words'] });
    const word = ownWord(ctx, 'event');
    ctx.must(await ctx.as('member').post(WORDS, { alert_words: [word] }), 'add an alert word');
    // Another scenario may change member's words meanwhile: the event of this change is the one listing the word.
    const got = await eventsUntil(mine, (e) => e.type === 'alert_words' && Array.isArray(e.alert_words) && e.alert_words.includes(word));
    const others = await eventsUntil(other, () => false);
    return { got, others, word };
  },
  then(ctx, { got, others, word }) {
    const words = got.found?.alert_words;
    ctx.check(
      'C.compat-lookups-11',
      Array.isArray(words) && words.includes(word),
      `member's queue got alert_words with ${word}`,
      got.reply,
    );
    const leaked = others.events.filter((e) => e.type === 'alert_words');
    ctx.check('C.compat-lookups-11', leaked.length === 0, `member_2's queue got no alert_words (${leaked.length})`, others.reply);
  },
});

const alerted = scenario({
  id: 'companion/compat-lookups/has-alert-word',
  title: "a message saying one of a user's alert words reaches them flagged has_alert_word",
  rules: ['C.compat-lookups-20'],
  requires: { roles: ['member', 'member_2'], channels: ['public'] },
  async when(ctx) {
    const word = ownWord(ctx, 'alerted');
    ctx.must(await ctx.as('member').post(WORDS, { alert_words: [word] }), 'add an alert word');
    const queue = await openQueue(ctx, 'member', { event_types: ['message'] });
    const id = await sendToChannel(ctx, 'member_2', ctx.channel('public').stream_id, `Look: ${word.toUpperCase()}, here.`);
    return eventsUntil(queue, messageEvent(id));
  },
  then(ctx, { reply, found }) {
    const flags = Array.isArray(found?.flags) ? (found.flags as string[]) : [];
    ctx.check(
      'C.compat-lookups-20',
      found !== undefined && flags.includes('has_alert_word'),
      `the message event's flags ${JSON.stringify(flags)}`,
      reply,
    );
  },
});

/** Keys of this scenario's own in the bot's storage, removed afterwards. */
function ownKeys(ctx: ScenarioContext, n: number): string[] {
  const keys = Array.from({ length: n }, (_, i) => ctx.unique(`key${i}`));
  ctx.defer(async () => {
    for (const key of keys) await ctx.as('bot').delete(STORAGE, { keys: [key] });
  });
  return keys;
}

const storageRoundTrip = scenario({
  id: 'companion/compat-lookups/bot-storage-round-trip',
  title: 'a bot reads back the entries it stored, and they are gone once removed',
  rules: ['C.compat-lookups-13'],
  requires: { roles: ['bot'] },
  async when(ctx) {
    const [a, b] = ownKeys(ctx, 2) as [string, string];
    const bot = ctx.as('bot');
    const put = await bot.call('PUT', STORAGE, { storage: { [a]: 'one', [b]: 'two' } });
    const both = await bot.get(STORAGE, { keys: [a, b] });
    const all = await bot.get(STORAGE);
    const removed = await bot.delete(STORAGE, { keys: [a] });
    const after = await bot.get(STORAGE);
    return { a, b, put, both, all, removed, after };
  },
  then(ctx, { a, b, put, both, all, removed, after }) {
    ctx.expectSuccess('C.compat-lookups-13', put);
    ctx.expectSuccess('C.compat-lookups-13', both, { storage: { [a]: 'one', [b]: 'two' } });
    const every = (all.body.storage ?? {}) as Record<string, unknown>;
    ctx.check('C.compat-lookups-13', every[a] === 'one' && every[b] === 'two', 'without keys every entry is read', all);
    ctx.expectSuccess('C.compat-lookups-13', removed);
    const rest = (after.body.storage ?? {}) as Record<string, unknown>;
    ctx.check('C.compat-lookups-13', !(a in rest) && rest[b] === 'two', `${a} is gone, ${b} stays`, after);
  },
});

const storageMissing = scenario({
  id: 'companion/compat-lookups/bot-storage-missing-key',
  title: 'reading or removing a key that is not stored is refused, and a refused removal removes nothing',
  rules: ['C.compat-lookups-14'],
  requires: { roles: ['bot'] },
  async given(ctx) {
    const [kept, missing] = ownKeys(ctx, 2) as [string, string];
    ctx.must(await ctx.as('bot').call('PUT', STORAGE, { storage: { [kept]: 'v' } }), 'store an entry');
    return { kept, missing };
  },
  async when(ctx, { kept, missing }) {
    const bot = ctx.as('bot');
    return {
      read: await bot.get(STORAGE, { keys: [missing] }),
      remove: await bot.delete(STORAGE, { keys: [kept, missing] }),
      after: await bot.get(STORAGE, { keys: [kept] }),
    };
  },
  then(ctx, { read, remove, after }, { kept }) {
    ctx.expectError('C.compat-lookups-14', read, { status: 400, code: 'BAD_REQUEST' });
    ctx.expectError('C.compat-lookups-14', remove, { status: 400, code: 'BAD_REQUEST' });
    if (after.status !== 200) throw new SetupError(`reading ${kept} back failed: ${after.text.slice(0, 120)}`);
    ctx.expectSuccess('C.compat-lookups-14', after, { storage: { [kept]: 'v' } });
  },
});

/** A topic of this scenario's own in the public channel; its policy for `who` is cleared afterwards. */
function ownTopic(ctx: ScenarioContext, who: 'member'): { streamId: number; topic: string } {
  const streamId = ctx.channel('public').stream_id;
  const topic = ctx.unique('muted');
  ctx.defer(() => ctx.as(who).post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: 0 }));
  return { streamId, topic };
}

type Row = Record<string, unknown>;
const rowsOf = (reply: Reply, key: string): unknown[] => (Array.isArray(reply.body[key]) ? (reply.body[key] as unknown[]) : []);

const topicPolicy = scenario({
  id: 'companion/compat-lookups/user-topic-policy',
  title: "a topic policy appears in register's user_topics and muted_topics, and policy 0 removes it",
  rules: ['C.compat-lookups-18'],
  requires: { roles: ['member'], channels: ['public'] },
  async when(ctx) {
    const { streamId, topic } = ownTopic(ctx, 'member');
    const me = ctx.as('member');
    const set = await me.post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: 1 });
    const muted = await snapshotOf(ctx, 'member', ['user_topic', 'muted_topics']);
    const cleared = await me.post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: 0 });
    const after = await snapshotOf(ctx, 'member', ['user_topic', 'muted_topics']);
    return { streamId, topic, set, muted, cleared, after };
  },
  then(ctx, { streamId, topic, set, muted, cleared, after }) {
    ctx.expectSuccess('C.compat-lookups-18', set);
    const mine = (r: unknown) => (r as Row).stream_id === streamId && (r as Row).topic_name === topic;
    const row = rowsOf(muted, 'user_topics').find(mine) as Row | undefined;
    ctx.check('C.compat-lookups-18', row?.visibility_policy === 1, `user_topics has ${topic} muted (${JSON.stringify(row)})`, muted);
    const name = ctx.channel('public').name;
    const triple = rowsOf(muted, 'muted_topics').some((t) => Array.isArray(t) && t[0] === name && t[1] === topic);
    ctx.check('C.compat-lookups-18', triple, `muted_topics has [${name}, ${topic}, …]`, muted);
    ctx.expectSuccess('C.compat-lookups-18', cleared);
    ctx.check('C.compat-lookups-18', !rowsOf(after, 'user_topics').some(mine), `policy 0 removed ${topic} from user_topics`, after);
  },
});

const topicEvent = scenario({
  id: 'companion/compat-lookups/user-topic-event',
  title: "setting a topic policy sends user_topic to the user's queue only",
  rules: ['C.compat-lookups-19'],
  requires: { roles: ['member', 'member_3'], channels: ['public'] },
  async when(ctx) {
    const mine = await openQueue(ctx, 'member', { event_types: ['user_topic'] });
    const other = await openQueue(ctx, 'member_3', { event_types: ['user_topic'] });
    const { streamId, topic } = ownTopic(ctx, 'member');
    ctx.must(await ctx.as('member').post('/api/v1/user_topics', { stream_id: streamId, topic, visibility_policy: 3 }), 'follow a topic');
    const got = await eventsUntil(mine, (e) => e.type === 'user_topic' && e.topic_name === topic);
    const others = await eventsUntil(other, () => false);
    return { got, others, streamId };
  },
  then(ctx, { got, others, streamId }) {
    const e = got.found;
    ctx.check(
      'C.compat-lookups-19',
      e?.stream_id === streamId && e.visibility_policy === 3,
      `member's queue got user_topic ${JSON.stringify(e)}`,
      got.reply,
    );
    const leaked = others.events.filter((x) => x.type === 'user_topic');
    ctx.check('C.compat-lookups-19', leaked.length === 0, `member_3's queue got no user_topic (${leaked.length})`, others.reply);
  },
});

export const USER_TOPICS = [topicPolicy, topicEvent];

export const ALERT_WORDS = [addWords, removeWords, tooLong, wordsEvent, alerted];
export const BOT_STORAGE = [storageRoundTrip, storageMissing];
