import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { channelSlug, encodeHashComponent } from '../../src/domain/markdown/channel-links.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * POST /api/v1/messages/render (spec §4.20, reference §4.20) against the demo realm, as member_3
 * (Jerald Wisozk, 16): subscribed to 51 "home"; the private moderation channel 57 "port moderation" is
 * one they may not know of (no subscription, no granting group, not an administrator). Expected
 * values that depend on generated data (message IDs, the custom emoji's name) are read from the store.
 */

let server: MockServer;
let who: Record<string, Who & { user_id: number }>;

beforeAll(async () => {
  server = await startTestServer();
  who = credentials(server);
});
afterAll(() => server.close());

const render = (content: string, as: Who = who.member_3!, realm?: string) =>
  call(server, 'POST', '/api/v1/messages/render', { as: realm ? credentials(server, realm).member_3! : as, form: { content } });

const tables = (realm = 'demo') => server.context.store.realm(realm)!;

describe('POST /messages/render', () => {
  it('renders "" to "" and plain Markdown as the reference server does', async () => {
    expect((await render('')).body).toEqual({ result: 'success', msg: '', rendered: '' });
    expect((await render('**foo**')).body).toEqual({ result: 'success', msg: '', rendered: '<p><strong>foo</strong></p>' });
  });

  it('answers a missing content with REQUEST_VARIABLE_MISSING', async () => {
    const reply = await call(server, 'POST', '/api/v1/messages/render', { as: who.member_3!, form: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      result: 'error',
      msg: "Missing 'content' argument",
      code: 'REQUEST_VARIABLE_MISSING',
      var_name: 'content',
    });
  });

  it('resolves mentions of demo users and groups', async () => {
    const reply = await render('@**Andrew Bergnaum** @_**maribel kunze** @**all** @*support* @**Arnulfo Renner**');
    expect(reply.body.rendered).toBe(
      '<p><span class="user-mention" data-user-id="14">@Andrew Bergnaum</span> ' +
        '<span class="user-mention silent" data-user-id="15">Maribel Kunze</span> ' +
        '<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span> ' +
        '<span class="user-group-mention" data-user-group-id="9">@support</span> ' +
        '@<strong>Arnulfo Renner</strong></p>',
    );
  });

  it('links channel 51 but not a private channel the caller cannot see', async () => {
    const reply = await render('#**home** #**port moderation** #**port moderation>anything**');
    expect(reply.body.rendered).toBe(
      '<p><a class="stream" data-stream-id="51" href="/#narrow/channel/51-home">#home</a> #<strong>port moderation</strong> #<strong>port moderation&gt;anything</strong></p>',
    );
    // An administrator may know every channel (channelMetadataAccess) and gets the link.
    expect((await render('#**port moderation**', who.administrator!)).body.rendered).toBe(
      '<p><a class="stream" data-stream-id="57" href="/#narrow/channel/57-port-moderation">#port moderation</a></p>',
    );
  });

  it('links a topic with its newest message ID', async () => {
    const topic = Object.values(tables().messages).find((m) => m.stream_id === 51 && m.subject !== '')!.subject;
    const latest = Math.max(
      ...Object.values(tables().messages)
        .filter((m) => m.stream_id === 51 && m.subject === topic)
        .map((m) => m.id),
    );
    const reply = await render(`#**home>${topic}** #**home>no such topic**`);
    expect(reply.body.rendered).toBe(
      `<p><a class="stream-topic" data-stream-id="51" href="/#narrow/channel/51-home/topic/${topic.replace(/ /g, '.20')}/with/${latest}">#home &gt; ${topic}</a> ` +
        '<a class="stream-topic" data-stream-id="51" href="/#narrow/channel/51-home/topic/no.20such.20topic">#home &gt; no such topic</a></p>',
    );
  });

  // LATEST counts only messages the caller may read (messageAccess); an unreadable topic of a channel the
  // caller may know renders as a topic without messages, so neither its existence nor its IDs leak.
  it('leaves LATEST out for a protected-history topic from before the caller joined', async () => {
    const channel = tables().channels['53']!;
    const member2 = who.member_2!.user_id;
    const inTopic = (topic: string) => Object.values(tables().messages).filter((m) => m.stream_id === 53 && m.subject === topic);
    const received = (id: number) => tables().user_messages[String(id)]?.flags[String(member2)] !== undefined;
    const topics = [
      ...new Set(
        Object.values(tables().messages)
          .filter((m) => m.stream_id === 53)
          .map((m) => m.subject),
      ),
    ];
    const before = topics.find((t) => inTopic(t).every((m) => !received(m.id)))!;
    const after = topics.find((t) => inTopic(t).some((m) => received(m.id)))!;
    const newest = (topic: string, only: (id: number) => boolean = () => true) =>
      Math.max(
        ...inTopic(topic)
          .map((m) => m.id)
          .filter(only),
      );
    const href = (topic: string, latest?: number) =>
      `/#narrow/channel/53-${channel.name.replace(/ /g, '-')}/topic/${topic.replace(/ /g, '.20')}${latest === undefined ? '' : `/with/${latest}`}`;
    const link = (topic: string, latest?: number) =>
      `<a class="stream-topic" data-stream-id="53" href="${href(topic, latest)}">#${channel.name} &gt; ${topic}</a>`;
    const input = `#**${channel.name}>${before}** #**${channel.name}>${after}**`;

    expect((await render(input, who.member_2!)).body.rendered).toBe(`<p>${link(before)} ${link(after, newest(after, received))}</p>`);
    // A subscriber from the start (the administrator) has read the whole history.
    expect((await render(input, who.administrator!)).body.rendered).toBe(
      `<p>${link(before, newest(before))} ${link(after, newest(after))}</p>`,
    );
  });

  it('gives an administrator with metadata access only the link of a topic without messages', async () => {
    const realm = 'markdown-metadata-only';
    await server.control.createRealm({ realm_id: realm });
    // Channel 54 without the administrators' granting group: they may know it, not read it.
    await server.context.store.transact(realm, (tx) => {
      const row = tx.tables.channels['54']!;
      tx.put('channels', 54, { ...row, can_add_subscribers_group: { direct_members: [who.member_3!.user_id], direct_subgroups: [] } });
    });
    const channel = tables(realm).channels['54']!;
    const topic = Object.values(tables(realm).messages).find((m) => m.stream_id === 54)!.subject;
    const admin = credentials(server, realm).administrator!;
    const rendered = async (t: string) => (await render(`#**${channel.name}>${t}**`, admin)).body.rendered as string;

    const withoutLatest = (t: string) =>
      `<p><a class="stream-topic" data-stream-id="54" href="/#narrow/channel/${channelSlug(channel)}/topic/${encodeHashComponent(t)}">#${channel.name} &gt; ${t}</a></p>`;
    expect(await rendered(topic)).toBe(withoutLatest(topic));
    expect(await rendered('made up')).toBe(withoutLatest('made up'));
    // A subscriber of 54 gets LATEST for the same topic.
    expect((await render(`#**${channel.name}>${topic}**`, credentials(server, realm).member_3!)).body.rendered).toContain('/with/');
  });

  it('renders the fixture realm emoji, not the deactivated one', async () => {
    const [active, deactivated] = [false, true].map((d) => Object.values(tables().custom_emoji).find((e) => e.deactivated === d)!);
    const reply = await render(`:${active!.name}: :${deactivated!.name}: :octopus:`);
    expect(reply.body.rendered).toBe(
      `<p><img alt=":${active!.name}:" class="emoji" src="${active!.source_url}" title="${active!.name.replace(/_/g, ' ')}"> :${deactivated!.name}: ` +
        '<span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
    );
  });

  it("applies the realm's linkifiers", async () => {
    const realm = 'markdown-linkifiers';
    await server.control.createRealm({ realm_id: realm });
    await server.context.store.transact(realm, (tx) => {
      const id = tx.nextId('linkifiers');
      tx.put('linkifiers', id, { id, pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://tickets.example.com/ZUL/{id}', order: -1 });
    });
    const reply = await render('see ZUL-77 and `ZUL-78`', who.member_3!, realm);
    const url = 'https://tickets.example.com/ZUL/77';
    expect(reply.body.rendered).toBe(`<p>see <a href="${url}" title="${url}">ZUL-77</a> and <code>ZUL-78</code></p>`);
  });
});
