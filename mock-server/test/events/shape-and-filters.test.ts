import { describe, expect, it } from 'vitest';
import { clientView, FULL_CLIENT } from '../../src/contract/client-view.js';
import { accepts as acceptsEvent } from '../../src/events/filters.js';
import type { QueueDescriptor } from '../../src/events/queue.js';
import { shapeFor as shapeEvent } from '../../src/events/shape.js';
import type { RealmState, UserRow } from '../../src/store/state.js';
import { madeUpEvent } from '../helpers/made-up-event.js';
import { queueDescriptor } from '../helpers/queue-descriptor.js';

// Partial payloads: the rules of shaping and filtering are under test here, not the payloads' fields.
type Payload = Record<string, unknown> & { type: string };
const shapeFor = (event: Payload, d: QueueDescriptor, viewer: UserRow | null = null): Record<string, unknown>[] =>
  shapeEvent(madeUpEvent(event), d, viewer);
const accepts = (d: QueueDescriptor, event: Payload, tables: RealmState | undefined) => acceptsEvent(d, madeUpEvent(event), tables);

const descriptor = queueDescriptor;

const channelMessage = (subject: string) => ({
  type: 'message',
  flags: ['mentioned'],
  message: {
    type: 'stream',
    stream_id: 7,
    display_recipient: 'Denmark',
    subject,
    sender_email: 'a@x.test',
    content: '**x**',
    rendered_content: '<p><strong>x</strong></p>',
    avatar_url: 'https://g/x',
    sender_id: 5,
    _gravatar: true,
    _email_visibility: 1,
  },
});
const directMessage = {
  type: 'message',
  flags: [],
  message: { type: 'private', subject: '', display_recipient: [{ email: 'a@x.test' }, { email: 'b@x.test' }], sender_email: 'a@x.test' },
};

describe('accepts: event_types and narrow (§6.6)', () => {
  it('filters by event_types, letting heartbeats through', () => {
    const d = descriptor({ eventTypes: new Set(['message']) });
    expect(accepts(d, { type: 'message' }, undefined)).toBe(true);
    expect(accepts(d, { type: 'drafts' }, undefined)).toBe(false);
    expect(accepts(d, { type: 'heartbeat' }, undefined)).toBe(true);
  });

  it.each([
    [[['is', 'dm']], directMessage, true],
    [[['is', 'dm']], channelMessage('t'), false],
    [[['channel', 'denmark']], channelMessage('t'), true],
    [[['stream', 'Sweden']], channelMessage('t'), false],
    [
      [
        ['channel', 'Denmark'],
        ['topic', 'T'],
      ],
      channelMessage('t'),
      true,
    ],
    [[['topic', 'other']], channelMessage('t'), false],
    [[['sender', 'A@x.test']], channelMessage('t'), true],
    [[['dm', 'b@x.test']], directMessage, true],
    [[['dm', 'c@x.test']], directMessage, false],
    [[['is', 'mentioned']], channelMessage('t'), true],
  ])('narrow %j on a message event → %s', (narrow, event, expected) => {
    expect(accepts(descriptor({ narrow: narrow as [string, string][] }), event as never, undefined)).toBe(expected);
  });

  it('never filters other events by narrow', () => {
    expect(accepts(descriptor({ narrow: [['is', 'dm']] }), { type: 'drafts', op: 'add' }, undefined)).toBe(true);
  });
});

/** A reader of role member (only the fields the avatar rule reads). */
const MEMBER = { user_id: 9, role: 400 } as UserRow;

describe('shapeFor: client capabilities (§4.21)', () => {
  it('shows the empty topic as the display name without empty_topic_name, only for channel messages', () => {
    const [legacy] = shapeFor(channelMessage(''), descriptor());
    expect((legacy!.message as Record<string, unknown>).subject).toBe('general chat');
    const [modern] = shapeFor(channelMessage(''), descriptor({ client: FULL_CLIENT }));
    expect((modern!.message as Record<string, unknown>).subject).toBe('');
    const [dm] = shapeFor(directMessage, descriptor());
    expect((dm!.message as Record<string, unknown>).subject).toBe('');
    expect(shapeFor({ type: 'typing', topic: '' }, descriptor())[0]!.topic).toBe('general chat');
  });

  it('picks Markdown or HTML by apply_markdown and hides shaping-only keys', () => {
    const raw = shapeFor(channelMessage('t'), descriptor())[0]!.message as Record<string, unknown>;
    expect(raw).toMatchObject({ content: '**x**', content_type: 'text/x-markdown', avatar_url: 'https://g/x' });
    expect('rendered_content' in raw || '_gravatar' in raw).toBe(false);
    const html = shapeFor(channelMessage('t'), descriptor({ applyMarkdown: true, clientGravatar: true }), MEMBER)[0]!.message as Record<
      string,
      unknown
    >;
    expect(html).toMatchObject({ content: '<p><strong>x</strong></p>', content_type: 'text/html', avatar_url: null });
  });

  it('leaves avatar_url for readers who may not see the sender’s real email, whose client cannot compute it (§2.5)', () => {
    const hidden = channelMessage('t');
    (hidden.message as Record<string, unknown>)._email_visibility = 3; // administrators only
    const forMember = shapeFor(hidden, descriptor({ clientGravatar: true }), MEMBER)[0]!.message as Record<string, unknown>;
    expect(forMember.avatar_url).toBe('https://g/x');
    const forAdmin = shapeFor(hidden, descriptor({ clientGravatar: true }), { ...MEMBER, role: 200 })[0]!.message as Record<
      string,
      unknown
    >;
    expect(forAdmin.avatar_url).toBeNull();
    expect('_email_visibility' in forMember).toBe(false);
  });

  it('splits bulk deletions for clients without bulk_message_deletion', () => {
    const event = { type: 'delete_message', message_type: 'stream', message_ids: [9, 3], stream_id: 1, topic: 't' };
    expect(shapeFor(event, descriptor()).map((e) => e.message_id)).toEqual([9, 3]);
    expect(shapeFor(event, descriptor({ client: clientView({ bulk_message_deletion: true }) }))).toEqual([
      { ...event, message_ids: [3, 9] },
    ]);
  });

  it('adds the legacy settings events for clients without user_settings_object', () => {
    const event = { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false };
    expect(shapeFor(event, descriptor()).map((e) => e.type)).toEqual(['user_settings', 'update_global_notifications']);
    expect(shapeFor({ ...event, property: 'emojiset', value: 'text' }, descriptor()).map((e) => e.type)).toEqual([
      'user_settings',
      'update_display_settings',
    ]);
    expect(shapeFor(event, descriptor({ client: clientView({ user_settings_object: true }) })).map((e) => e.type)).toEqual([
      'user_settings',
    ]);
  });

  it('sends realm_linkifiers only to clients with linkifier_url_template', () => {
    const event = { type: 'realm_linkifiers', realm_linkifiers: [] };
    expect(shapeFor(event, descriptor())).toEqual([]);
    expect(shapeFor(event, descriptor({ client: clientView({ linkifier_url_template: true }) }))).toEqual([event]);
  });

  it('turns a group deactivation into a removal for clients without include_deactivated_groups', () => {
    const event = { type: 'user_group', op: 'update', group_id: 5, data: { deactivated: true } };
    expect(shapeFor(event, descriptor())).toEqual([{ type: 'user_group', op: 'remove', group_id: 5 }]);
    expect(shapeFor(event, descriptor({ client: clientView({ include_deactivated_groups: true }) }))).toEqual([event]);
  });
});
