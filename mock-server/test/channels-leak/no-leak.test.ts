import { describe, expect, it } from 'vitest';
import { channelMetadataAccess } from '../../src/domain/access.js';
import { call } from '../helpers/test-server.js';
import { accounts, hasMetadataAccess, outsidersOf, secretOf, subscribed, tablesOf, type Account } from './model.js';
import { findLeaks, foreignChannelIds, normalized } from './scan.js';
import { allowedFor, readSweep } from './sweep.js';
import { PRIVATE, byIdProbes, byNameProbes, channelOf, NO_SUCH_ID, NO_SUCH_NAME, ownerMaySend } from './probes.js';
import { useTestServer } from './support.js';

/**
 * The no-leak rule, as a sweep over the reads: no private channel's name, messages or subscribers
 * reach a user without metadata access (spec §2.2, §2.3 "Empty array when the caller may not know the
 * subscribers", §4.15 "channels the user can access"; reference "Shared access checks": one text for a
 * channel that does not exist and one the caller may not see, "so nothing leaks"). The events side is
 * no-leak-events.test.ts. Reads only: this file never changes the demo realm (it checks that too).
 */

const env = useTestServer();
const REALM = 'demo';

const outsiders = (key: (typeof PRIVATE)[number]) => outsidersOf(env.server, REALM, channelOf(env.server, REALM, key).stream_id);
const frozen = (id: number) =>
  JSON.stringify([tablesOf(env.server, REALM).channels[String(id)], Object.values(tablesOf(env.server, REALM).subscriptions)]);

describe('who the sweep treats as an outsider', () => {
  it('the test model agrees with access.ts for every account and every channel', () => {
    const tables = tablesOf(env.server, REALM);
    const disagreements: string[] = [];
    for (const account of accounts(env.server, REALM)) {
      const user = tables.users[String(account.user_id)]!;
      for (const channel of Object.values(tables.channels)) {
        if (hasMetadataAccess(tables, user, channel) !== channelMetadataAccess(tables, user, channel))
          disagreements.push(`${user.user_id}/${channel.stream_id}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  // Derived from the world, not assumed: 53 lets role:members add subscribers (so every member may
  // read it, member_3 included) and only the guest is out; 54 lets member_3 and administrators add;
  // 57 lets administrators add. Bots and the two members without a role (17, 18) count like anyone.
  it.each([
    ['private_protected', [19]],
    ['private_shared', [13, 15, 17, 18, 21]],
    ['moderation', [14, 15, 16, 17, 18, 19, 21]],
  ] as const)('%s: outsiders are %j, and the channel has secrets to look for', (key, expected) => {
    expect(outsiders(key).map((a) => a.user_id)).toEqual(expected);
    const secret = secretOf(tablesOf(env.server, REALM), channelOf(env.server, REALM, key).stream_id);
    const labels = secret.strings.map((s) => s.label);
    expect(labels).toEqual(expect.arrayContaining(['name', 'description', 'rendered_description']));
    expect(labels.filter((l) => l.endsWith(' content')).length).toBeGreaterThan(0);
    expect(secret.subscribers.length).toBeGreaterThan(0);
  });
});

describe('reads (register snapshot, GET /streams, subscriptions, topics)', () => {
  it.each(PRIVATE)('%s: no answer to an outsider carries its ID, name, description, messages or subscribers', async (key) => {
    const { stream_id } = channelOf(env.server, REALM, key);
    const secret = secretOf(tablesOf(env.server, REALM), stream_id);
    const found = new Set<string>();
    for (const account of outsiders(key)) {
      for (const obs of await readSweep(env.server, REALM, account)) {
        expect(obs.reply.status, `${account.email} ${obs.label}: ${obs.reply.text.slice(0, 200)}`).toBe(200);
        const leaks = obs.grant.has(stream_id) ? [] : findLeaks(obs.reply.body, secret);
        leaks.push(...foreignChannelIds(obs.reply.body, allowedFor(env.server, REALM, account, obs)));
        for (const l of leaks) found.add(`${account.email} ${obs.label}: ${l.path} → ${l.what}`);
      }
    }
    expect([...found]).toEqual([]);
  });

  it.each(PRIVATE)(
    '%s: include_all_active from an outsider (never an administrator) is refused without channel data (C16)',
    async (key) => {
      for (const account of outsiders(key)) {
        const reply = await call(env.server, 'GET', '/api/v1/streams', { as: account, query: { include_all_active: 'true' } });
        expect([reply.status, reply.body]).toEqual([
          400,
          { result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' },
        ]);
      }
    },
  );

  it('a spectator register (C21) shows no private channel at all', async () => {
    const tables = tablesOf(env.server, REALM);
    const reply = await call(env.server, 'POST', '/api/v1/register', { form: { client_gravatar: 'false', include_subscribers: 'false' } });
    expect(reply.status).toBe(200);
    const webPublic = new Set(
      Object.values(tables.channels)
        .filter((c) => c.is_web_public)
        .map((c) => c.stream_id),
    );
    const found = foreignChannelIds(reply.body, webPublic).map((l) => `${l.path} → ${l.what}`);
    for (const c of Object.values(tables.channels).filter((c) => c.invite_only)) {
      found.push(...findLeaks(reply.body, secretOf(tables, c.stream_id)).map((l) => `${l.path} → ${l.what}`));
    }
    expect(found).toEqual([]);
  });

  it('a bot sees its owner’s private channel only through include_owner_subscribed (the §4.15 grant the sweep allows)', async () => {
    const tables = tablesOf(env.server, REALM);
    const bot = accounts(env.server, REALM).find((a) => a.is_bot)!;
    const owner = tables.users[String(bot.user_id)]!.bot_owner_id!;
    const granted = Object.values(tables.channels).filter(
      (c) => c.invite_only && subscribed(tables, owner, c.stream_id) && !hasMetadataAccess(tables, tables.users[String(bot.user_id)]!, c),
    );
    expect(granted.map((c) => c.stream_id)).toEqual([channelOf(env.server, REALM, 'private_shared').stream_id]);
    const ids = async (query: Record<string, string>) =>
      ((await call(env.server, 'GET', '/api/v1/streams', { as: bot, query })).body.streams as { stream_id: number }[]).map(
        (s) => s.stream_id,
      );
    expect(await ids({ include_owner_subscribed: 'true' })).toContain(granted[0]!.stream_id);
    expect(await ids({ include_owner_subscribed: 'false', include_all: 'true', include_can_access_content: 'true' })).not.toContain(
      granted[0]!.stream_id,
    );
  });
});

describe('errors: an outsider cannot tell the channel from one that does not exist', () => {
  it.each(PRIVATE)('%s: by ID, every operation answers exactly as for a channel ID that does not exist', async (key) => {
    const { stream_id } = channelOf(env.server, REALM, key);
    const before = frozen(stream_id);
    const differences: string[] = [];
    for (const account of outsiders(key)) {
      for (const probe of byIdProbes(tablesOf(env.server, REALM), stream_id)) {
        if (probe.send && ownerMaySend(tablesOf(env.server, REALM), account, stream_id)) continue;
        const mine = await call(env.server, probe.method, probe.path(stream_id), { as: account, ...probe.options(stream_id) });
        const none = await call(env.server, probe.method, probe.path(NO_SUCH_ID), { as: account, ...probe.options(NO_SUCH_ID) });
        expect(none.status, `${probe.label} on ${NO_SUCH_ID} must fail`).toBeGreaterThanOrEqual(400);
        if (JSON.stringify(normalized(mine, stream_id)) !== JSON.stringify(normalized(none, NO_SUCH_ID))) {
          differences.push(`${account.email} ${probe.label}: ${mine.status} ${mine.text} ≠ ${none.status} ${none.text}`);
        }
      }
    }
    expect(differences).toEqual([]);
    expect(frozen(stream_id)).toBe(before);
  });

  it.each(PRIVATE)('%s: by name, unsubscribe and send answer exactly as for a name that does not exist', async (key) => {
    const { stream_id, name } = channelOf(env.server, REALM, key);
    const before = frozen(stream_id);
    const insider = tablesOf(env.server, REALM).subscriptions;
    const subscriberId = Object.values(insider).find((s) => s.stream_id === stream_id && s.active)!.user_id;
    const differences: string[] = [];
    for (const account of outsiders(key)) {
      for (const probe of byNameProbes(subscriberId)) {
        if (probe.send && ownerMaySend(tablesOf(env.server, REALM), account, stream_id)) continue;
        for (const [sent, other] of [
          [name, NO_SUCH_NAME],
          [name.toUpperCase(), NO_SUCH_NAME.toUpperCase()],
        ] as const) {
          const mine = await call(env.server, probe.method, probe.path, { as: account, ...probe.options(sent) });
          const none = await call(env.server, probe.method, probe.path, { as: account, ...probe.options(other) });
          if (JSON.stringify(normalized(mine, sent)) !== JSON.stringify(normalized(none, other))) {
            differences.push(`${account.email} ${probe.label} ${JSON.stringify(sent)}: ${mine.text} ≠ ${none.text}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
    expect(frozen(stream_id)).toBe(before);
  });

  // Subscribing by a name that does not exist creates the channel, so existence cannot be hidden here
  // (names are unique in a realm); what must not leak is anything beyond the words the caller sent.
  it.each(PRIVATE)('%s: subscribing by name is refused with nothing but the name as the outsider sent it', async (key) => {
    const { stream_id, name } = channelOf(env.server, REALM, key);
    const before = frozen(stream_id);
    const unexpected: string[] = [];
    for (const account of outsiders(key)) {
      for (const sent of [name, name.toUpperCase()]) {
        const subscriptions = JSON.stringify([{ name: sent }]);
        const fatal = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', { as: account, form: { subscriptions } });
        const lenient = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', {
          as: account,
          form: { subscriptions, authorization_errors_fatal: 'false' },
        });
        const want = [
          [400, { result: 'error', msg: `Unable to access channel (${sent}).`, code: 'BAD_REQUEST' }],
          [
            200,
            {
              result: 'success',
              msg: '',
              subscribed: {},
              already_subscribed: {},
              new_subscription_messages_sent: false,
              unauthorized: [sent],
            },
          ],
        ];
        const got = [
          [fatal.status, fatal.body],
          [lenient.status, lenient.body],
        ];
        if (JSON.stringify(got) !== JSON.stringify(want))
          unexpected.push(`${account.email} ${JSON.stringify(sent)}: ${fatal.text} | ${lenient.text}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(frozen(stream_id)).toBe(before);
  });

  it.each(PRIVATE)('%s: rendering a link to it (§4.20) answers as for a channel that does not exist', async (key) => {
    const { stream_id, name } = channelOf(env.server, REALM, key);
    const secret = secretOf(tablesOf(env.server, REALM), stream_id);
    const topic = secret.strings.find((s) => s.label.endsWith(' topic'))?.text ?? 'general';
    // The name and topic are what the caller typed; everything else about the channel stays secret.
    const echoed = { ...secret, strings: secret.strings.filter((s) => s.text !== name && s.text !== topic) };
    for (const account of outsiders(key)) {
      const render = (n: string) =>
        call(env.server, 'POST', '/api/v1/messages/render', { as: account, form: { content: `#**${n}** and #**${n}>${topic}**` } });
      const [mine, none] = [await render(name), await render(NO_SUCH_NAME)];
      expect(normalized(mine, name), account.email).toEqual(normalized(none, NO_SUCH_NAME));
      expect(findLeaks(mine.body, echoed), account.email).toEqual([]);
    }
  });
});

describe('negative control: the same sweep finds the channel for someone who may know it', () => {
  it.each(PRIVATE)('%s: an insider’s answers carry its ID, name and subscribers, and the error probes tell it apart', async (key) => {
    const { stream_id } = channelOf(env.server, REALM, key);
    const tables = tablesOf(env.server, REALM);
    const secret = secretOf(tables, stream_id);
    const insider: Account = accounts(env.server, REALM).find((a) => subscribed(tables, a.user_id, stream_id))!;
    const observations = await readSweep(env.server, REALM, insider);
    const leaks = observations.flatMap((o) => findLeaks(o.reply.body, secret).map((l) => l.what));
    expect(leaks).toEqual(
      expect.arrayContaining([`stream_id ${stream_id}`, `the channel's name ${JSON.stringify(secret.strings[0]!.text)}`]),
    );
    // The whitelist is live too: the channel is foreign once it is taken out of the allowed set.
    const snapshot = observations[0]!.reply.body;
    const allowed = allowedFor(env.server, REALM, insider, observations[0]!);
    expect(foreignChannelIds(snapshot, allowed)).toEqual([]);
    allowed.delete(stream_id);
    expect(foreignChannelIds(snapshot, allowed).length).toBeGreaterThan(0);
    // include_subscribers true hands an insider the very subscriber list an outsider must not get.
    const sub = (snapshot.subscriptions as { stream_id: number; subscribers: number[] }[]).find((s) => s.stream_id === stream_id)!;
    expect(sub.subscribers).toEqual(secret.subscribers);
    const got = await call(env.server, 'GET', `/api/v1/streams/${stream_id}`, { as: insider });
    const none = await call(env.server, 'GET', `/api/v1/streams/${NO_SUCH_ID}`, { as: insider });
    expect(normalized(got, stream_id)).not.toEqual(normalized(none, NO_SUCH_ID));
  });
});
