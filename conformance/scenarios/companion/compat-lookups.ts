import { isDeepStrictEqual } from 'node:util';
import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { snapshot, snapshotOf } from '../shared.js';
import { ALERT_WORDS, BOT_STORAGE, USER_TOPICS } from './compat-lookups-lists.js';

/**
 * Companion tier, compat-lookups (conformance/rules/companion/compat-lookups.json): the reference server's
 * compatibility keys, lookups and register keys stock clients read. These scenarios only read, but for
 * starred-messages, which sends a message of its own and unstars it again; the ones that change lists
 * (alert words, bot storage, topic policies) are in compat-lookups-lists.ts and undo what they add.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function versionKeys(ctx: ScenarioContext, rule: string, body: Obj, where: string, reply: Reply): void {
  ctx.check(rule, typeof body.zulip_version === 'string', `${where} zulip_version ${JSON.stringify(body.zulip_version)}`, reply);
  ctx.check(
    rule,
    Number.isInteger(body.zulip_feature_level),
    `${where} zulip_feature_level ${JSON.stringify(body.zulip_feature_level)}`,
    reply,
  );
  ctx.check(rule, typeof body.zulip_merge_base === 'string', `${where} zulip_merge_base ${JSON.stringify(body.zulip_merge_base)}`, reply);
}

const registerVersion = scenario<undefined, Reply[]>({
  id: 'companion/compat-lookups/register-version-keys',
  title: 'register always carries zulip_version, zulip_feature_level and zulip_merge_base',
  rules: ['C.compat-lookups-1'],
  requires: { roles: ['member'] },
  when: async (ctx) => [
    await ctx.snapshot('member', { fetch_event_types: [] }),
    await ctx.snapshot('member', { event_types: ['message'], fetch_event_types: ['message'] }),
    await ctx.snapshot('member', {}),
  ],
  then(ctx, replies) {
    for (const [i, reply] of replies.entries()) {
      ctx.expectSuccess('C.compat-lookups-1', reply);
      versionKeys(ctx, 'C.compat-lookups-1', reply.body, `register #${i + 1}`, reply);
    }
  },
});

const serverSettings = scenario({
  id: 'companion/compat-lookups/server-settings-version-keys',
  title: 'server_settings carries zulip_version, zulip_feature_level and zulip_merge_base',
  rules: ['C.compat-lookups-2'],
  when: (ctx) => ctx.anonymous.get('/api/v1/server_settings'),
  then(ctx, res) {
    ctx.expectSuccess('C.compat-lookups-2', res);
    versionKeys(ctx, 'C.compat-lookups-2', res.body, 'server_settings', res);
  },
});

const realmEmoji = scenario<undefined, { list: Reply; snap: Reply }>({
  id: 'companion/compat-lookups/realm-emoji',
  title: "GET /realm/emoji maps each emoji by its ID; register's realm_emoji is the same map",
  rules: ['C.compat-lookups-3', 'C.compat-lookups-4', 'C.compat-lookups-23'],
  requires: { roles: ['member'] },
  when: async (ctx) => ({
    list: await ctx.as('member').get('/api/v1/realm/emoji'),
    snap: await snapshotOf(ctx, 'member', ['realm_emoji']),
  }),
  then(ctx, { list, snap }) {
    ctx.expectSuccess('C.compat-lookups-3', list);
    const emoji = list.body.emoji;
    ctx.check('C.compat-lookups-3', isObj(emoji), `emoji is an object (${JSON.stringify(emoji)?.slice(0, 80)})`, list);
    if (!isObj(emoji)) return;
    for (const [key, value] of Object.entries(emoji)) {
      const e = isObj(value) ? value : {};
      const ok =
        /^[0-9]+$/.test(key) &&
        e.id === key &&
        typeof e.name === 'string' &&
        typeof e.source_url === 'string' &&
        typeof e.deactivated === 'boolean' &&
        'author_id' in e;
      ctx.check('C.compat-lookups-3', ok, `emoji ${key}: ${JSON.stringify(value)}`, list);
      // Reference get-custom-emoji: still_url on every emoji from feature level 113 (null for a still image).
      if (ctx.has('realm_emoji_still_url'))
        ctx.check(
          'C.compat-lookups-23',
          e.still_url === null || typeof e.still_url === 'string',
          `emoji ${key} still_url ${JSON.stringify(e.still_url)} at level ${ctx.level}`,
          list,
        );
    }
    ctx.expectEqual('C.compat-lookups-4', snap.body.realm_emoji, emoji, "register's realm_emoji", snap);
  },
});

const userByEmail = scenario<undefined, { byEmail: Reply; byId: Reply; unknown: Reply }>({
  id: 'companion/compat-lookups/user-by-email',
  title: 'GET /users/{email} answers the user GET /users/{id} answers; an unknown email is refused',
  rules: ['C.compat-lookups-5', 'C.compat-lookups-6'],
  requires: { roles: ['member', 'member_2'] },
  when: async (ctx) => {
    const target = ctx.user('member_2');
    const me = ctx.as('member');
    return {
      byEmail: await me.get(`/api/v1/users/${target.email}`),
      byId: await me.get(`/api/v1/users/${target.user_id}`),
      unknown: await me.get(`/api/v1/users/${ctx.unique('nobody').toLowerCase()}@nowhere.invalid`),
    };
  },
  then(ctx, { byEmail, byId, unknown }) {
    ctx.expectSuccess('C.compat-lookups-5', byEmail);
    ctx.expectEqual('C.compat-lookups-5', byEmail.body.user, byId.body.user, 'the user by email', byEmail);
    ctx.expectError('C.compat-lookups-6', unknown, { status: 400, code: 'BAD_REQUEST' });
  },
});

const userGroups = scenario<undefined, { list: Reply; snap: Reply }>({
  id: 'companion/compat-lookups/user-groups',
  title: "GET /user_groups lists the groups of register's realm_user_groups",
  rules: ['C.compat-lookups-7'],
  requires: { roles: ['member'] },
  when: async (ctx) => ({
    list: await ctx.as('member').get('/api/v1/user_groups'),
    snap: await snapshotOf(ctx, 'member', ['realm_user_groups']),
  }),
  then(ctx, { list, snap }) {
    ctx.expectSuccess('C.compat-lookups-7', list);
    const listed = new Map(((list.body.user_groups ?? []) as Obj[]).map((g) => [g.id, g]));
    const registered = (snap.body.realm_user_groups ?? []) as Obj[];
    if (registered.length === 0) throw new SetupError('register gave no realm_user_groups');
    for (const g of registered) {
      const found = listed.get(g.id);
      const same = found !== undefined && isDeepStrictEqual(sorted(found.members), sorted(g.members));
      ctx.check('C.compat-lookups-7', same, `group ${String(g.id)} (${String(g.name)}) listed with the same members`, list);
    }
  },
});

const userGroupsRefused = scenario<undefined, { guest: Reply; bot: Reply }>({
  id: 'companion/compat-lookups/user-groups-refused',
  title: 'GET /user_groups refuses guests and bots',
  rules: ['C.compat-lookups-22'],
  requires: { roles: ['guest', 'bot'] },
  when: async (ctx) => ({
    guest: await ctx.as('guest').get('/api/v1/user_groups'),
    bot: await ctx.as('bot').get('/api/v1/user_groups'),
  }),
  then(ctx, { guest, bot }) {
    // Status, code and texts: reference get-user-groups and its member-or-administrator gate.
    ctx.expectError('C.compat-lookups-22', guest, { status: 400, code: 'BAD_REQUEST', msg: 'Not allowed for guest users' });
    ctx.expectError('C.compat-lookups-22', bot, { status: 400, code: 'BAD_REQUEST', msg: 'This endpoint does not accept bot requests.' });
  },
});

const sorted = (v: unknown) => (Array.isArray(v) ? [...(v as number[])].sort((a, b) => a - b) : v);

const registerKeys = scenario<undefined, Reply>({
  id: 'companion/compat-lookups/register-client-keys',
  title: 'register gives muted_topics, user_topics, custom_profile_fields and realm_message_retention_days with their types',
  rules: ['C.compat-lookups-15', 'C.compat-lookups-16', 'C.compat-lookups-17'],
  requires: { roles: ['member'] },
  when: (ctx) => snapshot(ctx, 'member', { fetch_event_types: ['muted_topics', 'user_topic', 'custom_profile_fields', 'realm'] }),
  then(ctx, res) {
    const b = res.body;
    const triples = Array.isArray(b.muted_topics) && b.muted_topics.every((t) => Array.isArray(t) && t.length === 3);
    ctx.check('C.compat-lookups-15', triples, `muted_topics ${JSON.stringify(b.muted_topics)?.slice(0, 100)}`, res);
    const topicOk = (t: unknown) => isObj(t) && ['stream_id', 'topic_name', 'last_updated', 'visibility_policy'].every((k) => k in t);
    ctx.check(
      'C.compat-lookups-15',
      Array.isArray(b.user_topics) && b.user_topics.every(topicOk),
      `user_topics ${JSON.stringify(b.user_topics)?.slice(0, 100)}`,
      res,
    );
    const fieldOk = (f: unknown) => isObj(f) && ['id', 'name', 'type', 'hint', 'field_data', 'order'].every((k) => k in f);
    const fields = b.custom_profile_fields;
    ctx.check(
      'C.compat-lookups-16',
      Array.isArray(fields) && fields.every(fieldOk),
      `custom_profile_fields ${JSON.stringify(fields)?.slice(0, 100)}`,
      res,
    );
    const days = b.realm_message_retention_days;
    ctx.check(
      'C.compat-lookups-17',
      Number.isInteger(days) && ((days as number) > 0 || days === -1),
      `realm_message_retention_days ${JSON.stringify(days)}`,
      res,
    );
  },
});

const starred = scenario({
  id: 'companion/compat-lookups/starred-messages',
  title: "register's starred_messages lists a message once starred and not once unstarred",
  rules: ['C.compat-lookups-21'],
  requires: { roles: ['member', 'member_2'] },
  async when(ctx) {
    const me = ctx.as('member');
    const sent = ctx.must(
      await me.post('/api/v1/messages', { type: 'private', to: [ctx.user('member_2').user_id], content: ctx.unique('star') }),
      'send',
    );
    const id = ctx.need(sent, 'id', 'integer');
    const flag = (op: string) => me.post('/api/v1/messages/flags', { messages: [id], op, flag: 'starred' });
    ctx.defer(() => flag('remove'));
    ctx.must(await flag('add'), 'star the message');
    const on = await snapshotOf(ctx, 'member', ['starred_messages']);
    ctx.must(await flag('remove'), 'unstar the message');
    const off = await snapshotOf(ctx, 'member', ['starred_messages']);
    return { id, on, off };
  },
  then(ctx, { id, on, off }) {
    const ids = (r: Reply) => (Array.isArray(r.body.starred_messages) ? (r.body.starred_messages as unknown[]) : []);
    ctx.check('C.compat-lookups-21', ids(on).includes(id), `starred_messages lists ${id} once starred`, on);
    ctx.check('C.compat-lookups-21', !ids(off).includes(id), `starred_messages leaves ${id} out once unstarred`, off);
  },
});

export const COMPAT_LOOKUPS = [
  starred,
  registerVersion,
  serverSettings,
  realmEmoji,
  userByEmail,
  userGroups,
  userGroupsRefused,
  registerKeys,
  ...ALERT_WORDS,
  ...BOT_STORAGE,
  ...USER_TOPICS,
];
