import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

let server: MockServer;
let c: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer();
  c = credentials(server);
});
afterAll(() => server.close());

const register = (who: Who | null, form: Record<string, string> = {}) => call(server, 'POST', '/api/v1/register', { as: who, form });
const inject = (event: Record<string, unknown>, userIds: number[], realm = 'demo') =>
  callControl(server, 'POST', `/__mock/realms/${realm}/events`, { event, user_ids: userIds });
const drain = async (who: Who, queueId: string) =>
  (await call(server, 'GET', '/api/v1/events', { as: who, query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' } })).body
    .events as Record<string, unknown>[];

describe('POST /api/v1/register (§4.21)', () => {
  it('answers queue_id, last_event_id -1, the feature level and version, and every snapshot key by default', async () => {
    const res = await register(c.member!);
    expect(res.body).toMatchObject({ result: 'success', last_event_id: -1, service_feature_level: 412 });
    expect(typeof res.body.queue_id).toBe('string');
    for (const key of [
      'subscriptions',
      'unsubscribed',
      'never_subscribed',
      'unread_msgs',
      'recent_private_conversations',
      'navigation_views',
      'saved_snippets',
      'channel_folders',
      'drafts',
      'scheduled_messages',
      'reminders',
      'realm_users',
      'realm_user_groups',
      'user_status',
      'max_message_length',
      'max_topic_length',
      'max_stream_name_length',
      'max_stream_description_length',
      'realm_empty_topic_display_name',
      'realm_linkifiers',
    ]) {
      expect(res.body, key).toHaveProperty(key);
    }
    expect(res.body.realm_empty_topic_display_name).toBe('general chat');
  });

  it('limits the snapshot to fetch_event_types, which defaults to event_types', async () => {
    const fetched = await register(c.member!, { event_types: '["message"]', fetch_event_types: '["saved_snippets"]' });
    expect(fetched.body).toHaveProperty('saved_snippets');
    expect(fetched.body).not.toHaveProperty('subscriptions');
    const defaulted = await register(c.member!, { event_types: '["subscription"]' });
    expect(defaulted.body).toHaveProperty('subscriptions');
    expect(defaulted.body).not.toHaveProperty('saved_snippets');
  });

  it('adds unread_msgs only when message and update_message_flags are both in event_types (C22)', async () => {
    expect((await register(c.member!, { event_types: '["message"]', fetch_event_types: '["message"]' })).body).not.toHaveProperty(
      'unread_msgs',
    );
    expect((await register(c.member!, { event_types: '["message", "update_message_flags"]' })).body).toHaveProperty('unread_msgs');
  });

  it('gates realm_linkifiers on the linkifier_url_template capability', async () => {
    const without = await register(c.member!, { fetch_event_types: '["realm_linkifiers"]' });
    const withIt = await register(c.member!, {
      fetch_event_types: '["realm_linkifiers"]',
      client_capabilities: '{"linkifier_url_template": true}',
    });
    expect(without.body.realm_linkifiers).toEqual([]);
    expect((withIt.body.realm_linkifiers as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses all_public_streams for guests', async () => {
    expect((await register(c.guest!, { all_public_streams: 'true' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: 'User not authorized for this query',
    });
  });

  it('takes include_subscribers partial only from feature level 412 (§9)', async () => {
    expect((await register(c.member!, { include_subscribers: 'partial', fetch_event_types: '["subscription"]' })).body.result).toBe(
      'success',
    );
    const old = (await callControl(server, 'POST', '/__mock/realms', { feature_level: '411' })).body as {
      world: { credentials: Record<string, Who> };
    };
    const res = await register(old.world.credentials.member!, { include_subscribers: 'partial' });
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid include_subscribers' });
    expect((await register(c.member!, { include_subscribers: 'True' })).body.msg).toBe('Invalid include_subscribers');
  });

  it('validates its JSON parameters as the reference server does', async () => {
    expect((await register(c.member!, { event_types: 'message' })).body.msg).toBe('event_types is not valid JSON');
    expect((await register(c.member!, { apply_markdown: '1' })).body.msg).toBe('apply_markdown is not a boolean');
    expect((await register(c.member!, { client_capabilities: '[]' })).body.msg).toBe('client_capabilities is not a dict');
  });

  it('reports queue_lifespan_secs as unsupported (C5), and narrow=[] as used', async () => {
    const res = await register(c.member!, { queue_lifespan_secs: '60', narrow: '[]', fetch_event_types: '[]' });
    expect(res.body.ignored_parameters_unsupported).toEqual(['queue_lifespan_secs']);
  });
});

describe('unauthenticated register (§5, C21)', () => {
  it('answers with queue_id null and only web-public data in a realm with public access', async () => {
    const res = await register(null, { fetch_event_types: '["stream"]' });
    expect(res.body).toMatchObject({ result: 'success', queue_id: null });
    expect((res.body.streams as { is_web_public: boolean }[]).every((s) => s.is_web_public)).toBe(true);
  });

  it('refuses client_gravatar true and include_subscribers true', async () => {
    expect((await register(null, { client_gravatar: 'true' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Invalid 'client_gravatar' parameter for anonymous request",
    });
    expect((await register(null, { include_subscribers: 'true' })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Invalid 'include_subscribers' parameter for anonymous request",
    });
  });

  it('answers 401 in a realm without public access', async () => {
    await server.context.store.transact('demo', (tx) =>
      tx.put('realm', 'realm', { ...tx.tables.realm.realm, enable_spectator_access: false }),
    );
    try {
      const res = await register(null);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
      // An authentication answer: it beats a malformed parameter.
      expect((await register(null, { apply_markdown: 'True' })).status).toBe(401);
    } finally {
      await server.context.store.transact('demo', (tx) =>
        tx.put('realm', 'realm', { ...tx.tables.realm.realm, enable_spectator_access: true }),
      );
    }
  });
});

describe('what a registered queue receives (§6.6)', () => {
  it('filters by event_types and narrow, and shapes by capabilities', async () => {
    const member = c.member!;
    const topicless = {
      type: 'message',
      flags: [],
      message: { type: 'stream', stream_id: 1, display_recipient: 'x', subject: '', content: 'c', rendered_content: '<p>c</p>' },
    };
    const legacy = (await register(member, { event_types: '["message"]', fetch_event_types: '[]', apply_markdown: 'true' })).body
      .queue_id as string;
    const modern = (
      await register(member, { event_types: '["message"]', fetch_event_types: '[]', client_capabilities: '{"empty_topic_name": true}' })
    ).body.queue_id as string;
    const dmOnly = (await register(member, { event_types: '["message"]', fetch_event_types: '[]', narrow: '[["is", "dm"]]' })).body
      .queue_id as string;
    await inject({ type: 'drafts', op: 'add', drafts: [] }, [member.user_id]);
    await inject(topicless, [member.user_id]);
    const [legacyEvent] = await drain(member, legacy);
    expect(legacyEvent).toMatchObject({
      type: 'message',
      message: { subject: 'general chat', content: '<p>c</p>', content_type: 'text/html' },
    });
    const modernEvents = await drain(member, modern);
    expect(modernEvents).toHaveLength(1);
    expect(modernEvents[0]).toMatchObject({ message: { subject: '', content: 'c', content_type: 'text/x-markdown' } });
    expect(await drain(member, dmOnly)).toEqual([]);
  });

  it('sends channel messages of public channels to all_public_streams queues, but not to bots', async () => {
    // member_3 and the bot are not subscribed to channel 59 (public): only all_public_streams brings its messages.
    const watcher = (await register(c.member_3!, { event_types: '["message"]', fetch_event_types: '[]', all_public_streams: 'true' })).body
      .queue_id as string;
    const plain = (await register(c.member_3!, { event_types: '["message"]', fetch_event_types: '[]' })).body.queue_id as string;
    const bot = (await register(c.bot!, { event_types: '["message"]', fetch_event_types: '[]', all_public_streams: 'true' })).body
      .queue_id as string;
    const sent = await call(server, 'POST', '/api/v1/messages', {
      as: c.member!,
      form: { type: 'stream', to: '59', topic: 'watch', content: 'for everyone' },
    });
    expect(sent.body.result).toBe('success');
    expect((await drain(c.member_3!, watcher)).map((e) => (e.message as { id: number }).id)).toEqual([sent.body.id]);
    expect(await drain(c.member_3!, plain)).toEqual([]);
    expect(await drain(c.bot!, bot)).toEqual([]);
  });
});
