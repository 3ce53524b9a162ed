import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { drain, openQueue, send } from '../helpers/harness.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';
import { tables } from './support.js';

/**
 * §2.5 topic_links and linkifiers in content (§2.11, reference §4.20): the demo realm's linkifiers
 * (`#(?P<id>[0-9]+)` → tickets, `org/repo#id` → issues) apply to a channel message's topic, in fetches
 * and in message events, and to its content when rendered.
 */
let server: MockServer;
let who: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer();
  await server.control.createRealm({ realm_id: 'links' });
  who = credentials(server, 'links') as typeof who;
});
afterAll(() => server.close());

const fetch = async (as: Who, id: number) =>
  (await call(server, 'GET', `/api/v1/messages/${id}`, { as })).body.message as Record<string, unknown>;

describe('topic_links', () => {
  it('lists each linkifier match of the topic, in linkifier order, in the fetch and in the message event', async () => {
    const { queueId } = await openQueue(server, who.member!, { event_types: '["message"]' });
    const sent = await send(server, who.member!, { type: 'stream', to: '51', topic: 'acme/rockets#7 and #42', content: 'Tracking.' });
    expect(sent.status).toBe(200);
    const expected = [
      { text: '#42', url: 'https://tickets.example.com/ticket/42' },
      { text: 'acme/rockets#7', url: 'https://github.com/acme/rockets/issues/7' },
    ];
    const fetched = await fetch(who.member!, sent.body.id as number);
    expect(fetched.topic_links).toEqual(expected);
    const [event] = await drain(server, who.member!, queueId);
    expect((event!.message as Record<string, unknown>).topic_links).toEqual(expected);
  });

  it('is empty for a topic without matches and for direct messages', async () => {
    const plain = await send(server, who.member!, { type: 'stream', to: '51', topic: 'nothing to link', content: 'See #42' });
    expect((await fetch(who.member!, plain.body.id as number)).topic_links).toEqual([]);
    const direct = await send(server, who.member!, { type: 'direct', to: JSON.stringify([who.member_2!.user_id]), content: 'About #42' });
    expect((await fetch(who.member!, direct.body.id as number)).topic_links).toEqual([]);
  });

  it('follows the realm linkifiers as they are now, and the content is linkified when sent', async () => {
    const sent = await send(server, who.member!, { type: 'stream', to: '51', topic: 'ticket #9', content: 'Fixed #9.' });
    const id = sent.body.id as number;
    const url = 'https://tickets.example.com/ticket/9';
    expect(tables(server, 'links').messages[String(id)]!.rendered_content).toBe(`<p>Fixed <a href="${url}" title="${url}">#9</a>.</p>`);
    await server.context.store.transact('links', (tx) => {
      for (const key of Object.keys(tx.tables.linkifiers)) tx.delete('linkifiers', key);
    });
    expect((await fetch(who.member!, id)).topic_links).toEqual([]);
  });
});
