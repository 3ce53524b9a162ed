import { describe, expect, it } from 'vitest';
import { error, freshRealm, success, tables, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { ROLES, get, snapshotOf } from './support.js';

/**
 * The lookups of the companion tier's compat-lookups area (reference server behaviour): realm emoji,
 * user groups, the legacy linkifier list, a user by email, and the compatibility keys of register and
 * server_settings. Reads only, so the file works on the demo realm itself.
 */
const env = useTestRealm({ realm: 'demo' });

describe('GET /realm/emoji', () => {
  it('maps every custom emoji by its ID as a string, deactivated ones included, for every role', async () => {
    const rows = Object.values(tables(env.server).custom_emoji);
    expect(rows.some((r) => r.deactivated)).toBe(true);
    const expected = Object.fromEntries(
      rows.map((r) => [
        String(r.id),
        { id: String(r.id), name: r.name, source_url: r.source_url, still_url: null, deactivated: r.deactivated, author_id: r.author_id },
      ]),
    );
    for (const role of ROLES) {
      const res = await get(env.server, env.who[role]!, '/realm/emoji');
      expect(res.status, role).toBe(200);
      expect(res.body, role).toEqual(success({ emoji: expected }));
    }
  });

  it('gives an animated emoji the still frame beside it as still_url (reference get-custom-emoji)', async () => {
    const { realm, who } = await freshRealm(env.server);
    await env.server.context.store.transact(realm, (tx) => {
      const row = Object.values(tx.tables.custom_emoji).find((e) => !e.deactivated)!;
      tx.put('custom_emoji', row.id, { ...row, source_url: row.source_url.replace(/[^/]+$/, 'wave.gif') });
    });
    const emoji = Object.values((await get(env.server, who.member!, '/realm/emoji')).body.emoji as Record<string, Record<string, unknown>>);
    const animated = emoji.find((e) => String(e.source_url).endsWith('/wave.gif'))!;
    expect(animated.still_url).toBe(String(animated.source_url).replace(/wave\.gif$/, 'still/wave.png'));
    expect(emoji.filter((e) => e !== animated).every((e) => e.still_url === null)).toBe(true);
  });

  it("is the map of register's realm_emoji, which only the realm_emoji type brings", async () => {
    const member = env.who.member!;
    const listed = (await get(env.server, member, '/realm/emoji')).body.emoji;
    expect((await snapshotOf(env.server, member, ['realm_emoji'])).realm_emoji).toEqual(listed);
    expect(await snapshotOf(env.server, member, ['message'])).not.toHaveProperty('realm_emoji');
  });

  it('needs credentials', async () => {
    const res = await call(env.server, 'GET', '/api/v1/realm/emoji');
    expect(res.status).toBe(401);
  });
});

describe('GET /user_groups', () => {
  it("lists the groups of register's realm_user_groups, active ones only by default", async () => {
    const member = env.who.member!;
    const res = await get(env.server, member, '/user_groups');
    expect(res.status).toBe(200);
    const groups = res.body.user_groups as { id: number; deactivated: boolean }[];
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.every((g) => !g.deactivated)).toBe(true);
    expect(groups.map((g) => g.id)).toEqual([...groups.map((g) => g.id)].sort((a, b) => a - b));
    expect((await snapshotOf(env.server, member, ['realm_user_groups'])).realm_user_groups).toEqual(groups);
  });

  it('adds the deactivated groups with include_deactivated_groups, as register does with the capability', async () => {
    const member = env.who.member!;
    const all = (await get(env.server, member, '/user_groups', { include_deactivated_groups: 'true' })).body.user_groups as {
      deactivated: boolean;
    }[];
    const deactivated = Object.values(tables(env.server).user_groups).filter((g) => g.deactivated).length;
    expect(deactivated).toBeGreaterThan(0);
    expect(all.filter((g) => g.deactivated)).toHaveLength(deactivated);
    const snapshot = await snapshotOf(env.server, member, ['realm_user_groups'], {
      client_capabilities: '{"include_deactivated_groups": true}',
    });
    expect(snapshot.realm_user_groups).toEqual(all);
  });

  it('answers owners, administrators, moderators and members the same list', async () => {
    const first = (await get(env.server, env.who.owner!, '/user_groups')).body;
    for (const role of ['administrator', 'moderator', 'member'] as const)
      expect((await get(env.server, env.who[role]!, '/user_groups')).body, role).toEqual(first);
  });

  it('refuses guests and bots before reading the parameters (reference get-user-groups)', async () => {
    for (const query of [{}, { include_deactivated_groups: 'maybe' }] as Record<string, string>[]) {
      const guest = await get(env.server, env.who.guest!, '/user_groups', query);
      expect([guest.status, guest.body]).toEqual([400, error('Not allowed for guest users')]);
      const bot = await get(env.server, env.who.bot!, '/user_groups', query);
      expect([bot.status, bot.body]).toEqual([400, error('This endpoint does not accept bot requests.')]);
    }
  });

  it("leaves register's realm_user_groups to guests and bots", async () => {
    for (const role of ['guest', 'bot'] as const)
      expect((await snapshotOf(env.server, env.who[role]!, ['realm_user_groups'])).realm_user_groups, role).not.toEqual([]);
  });

  it('refuses a flag that is not a boolean', async () => {
    const res = await get(env.server, env.who.member!, '/user_groups', { include_deactivated_groups: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('include_deactivated_groups is not valid JSON'));
  });
});

describe('GET /realm/filters (legacy list)', () => {
  it('gives each linkifier of GET /realm/linkifiers as [pattern, url_template, id], in the same order', async () => {
    const member = env.who.member!;
    const linkifiers = (await get(env.server, member, '/realm/linkifiers')).body.linkifiers as {
      id: number;
      pattern: string;
      url_template: string;
    }[];
    expect(linkifiers.length).toBeGreaterThan(0);
    const res = await get(env.server, member, '/realm/filters');
    expect(res.body).toEqual(success({ filters: linkifiers.map((l) => [l.pattern, l.url_template, l.id]) }));
  });
});

describe('GET /users/{email}', () => {
  it('finds a user by API email in any letter case, as GET /users/{id} presents them', async () => {
    const member = env.who.member!;
    const owner = env.who.owner!;
    const byId = await get(env.server, member, `/users/${owner.user_id}`);
    expect(byId.status).toBe(200);
    expect((await get(env.server, member, `/users/${owner.email}`)).body).toEqual(byId.body);
    expect((await get(env.server, member, `/users/${encodeURIComponent(owner.email.toUpperCase())}`)).body).toEqual(byId.body);
  });

  it('takes client_gravatar and include_custom_profile_fields as by ID', async () => {
    const member = env.who.member!;
    const owner = env.who.owner!;
    const query = { include_custom_profile_fields: 'true', client_gravatar: 'false' };
    const byEmail = await get(env.server, member, `/users/${owner.email}`, query);
    expect(byEmail.body).toEqual((await get(env.server, member, `/users/${owner.user_id}`, query)).body);
    expect((byEmail.body.user as Record<string, unknown>).profile_data).toBeDefined();
  });

  it('finds bots and deactivated users too', async () => {
    for (const role of ['bot', 'deactivated']) {
      const who = env.who[role]!;
      const res = await get(env.server, env.who.member!, `/users/${who.email}`);
      expect(res.status, role).toBe(200);
      expect((res.body.user as { user_id: number }).user_id, role).toBe(who.user_id);
    }
  });

  it('answers No such user for an unknown email, a system bot and a word that is no email', async () => {
    const bot = Object.values(tables(env.server).users).find((u) => u.is_system_bot)!;
    for (const segment of ['nobody@demo.teamchat.test', bot.email, 'not-an-email']) {
      const res = await get(env.server, env.who.member!, `/users/${segment}`);
      expect(res.status, segment).toBe(400);
      expect(res.body, segment).toEqual(error('No such user'));
    }
  });

  it('keeps the other operations of the path integer-only (a non-number there names no resource)', async () => {
    const res = await call(env.server, 'PATCH', `/api/v1/users/${env.who.member!.email}`, { as: env.who.owner!, form: { full_name: 'X' } });
    expect(res.status).toBe(404);
  });
});

describe('compatibility keys', () => {
  it('server_settings names the merge base beside the version aliases', async () => {
    const res = await call(env.server, 'GET', '/api/v1/server_settings');
    expect(res.body.zulip_merge_base).toBe(res.body.service_version);
    expect(res.body.zulip_version).toBe(res.body.service_version);
  });

  it('register always carries zulip_version, zulip_feature_level and zulip_merge_base, whatever is fetched', async () => {
    for (const types of [[], ['message'], null]) {
      const snapshot = await snapshotOf(env.server, env.who.member!, types);
      expect(snapshot.zulip_version, JSON.stringify(types)).toBe(snapshot.service_version);
      expect(snapshot.zulip_merge_base).toBe(snapshot.service_version);
      expect(snapshot.zulip_feature_level).toBe(snapshot.service_feature_level);
    }
  });

  it('register below level 176 announces 176 as zulip_feature_level, as server_settings does', async () => {
    const { who } = await freshRealm(env.server, 100);
    const res = await call(env.server, 'POST', '/api/v1/register', { as: who.member!, form: { fetch_event_types: '[]' } });
    const settings = await call(env.server, 'GET', '/api/v1/server_settings', { as: who.member! });
    expect(res.body).toMatchObject({ service_feature_level: 100, zulip_feature_level: 176 });
    expect(settings.body.zulip_feature_level).toBe(176);
  });
});
