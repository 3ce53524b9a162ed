import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderMessage, type Mentions } from '../../src/domain/markdown.js';
import { as, USERS } from './support.js';

const hamlet = '<span class="user-mention" data-user-id="1">@King Hamlet</span>';
const trac = (n: number) => `<a href="https://trac.example.com/ticket/${n}" title="https://trac.example.com/ticket/${n}">#${n}</a>`;

// Input → HTML with realm data, author King Hamlet (user 1, a member subscribed to the private "secret"); the
// reference doc's own examples are in render.test.ts.
const CASES: [string, string][] = [
  // User mentions (reference §4.20): normal, silent, |ID forms, case-insensitive names shown as stored.
  ['@**king HAMLET**', `<p>${hamlet}</p>`],
  [
    '@**Othello|2** @**|2** @**othello|2**',
    '<p><span class="user-mention" data-user-id="2">@Othello</span> <span class="user-mention" data-user-id="2">@Othello</span> <span class="user-mention" data-user-id="2">@Othello</span></p>',
  ],
  ['@**Cordelia Lear|2**', '<p>@<strong>Cordelia Lear|2</strong></p>'],
  ['@_**Nobody**', '<p>@_<strong>Nobody</strong></p>'],
  // Two users named alike: only the |ID form mentions either.
  ['@**Dup Name**', '<p>@<strong>Dup Name</strong></p>'],
  ['@**Dup Name|5**', '<p><span class="user-mention" data-user-id="5">@dup name</span></p>'],
  // Deactivated users and system bots are not mentionable; other bots are.
  ['@**Ghost** @**Notification Bot**', '<p>@<strong>Ghost</strong> @<strong>Notification Bot</strong></p>'],
  ['@**Helper Bot**', '<p><span class="user-mention" data-user-id="8">@Helper Bot</span></p>'],
  // Wildcards.
  [
    '@**everyone** @**channel** @**stream**',
    '<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span> <span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span> <span class="user-mention channel-wildcard-mention" data-user-id="*">@stream</span></p>',
  ],
  ['@**topic**', '<p><span class="topic-mention">@topic</span></p>'],
  [
    '@_**all** @_**topic**',
    '<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span> <span class="topic-mention silent">topic</span></p>',
  ],
  // Group mentions; system and deactivated groups are not mentionable by name.
  ['@*backend*', '<p><span class="user-group-mention" data-user-group-id="20">@backend</span></p>'],
  ['@*BACKEND*', '<p><span class="user-group-mention" data-user-group-id="20">@backend</span></p>'],
  ['@_*backend*', '<p><span class="user-group-mention silent" data-user-group-id="20">backend</span></p>'],
  ['@*role:members* @*old team*', '<p>@<em>role:members</em> @<em>old team</em></p>'],
  // Where a mention may start; never inside code; silent inside quotes.
  ['hi @**King Hamlet**, (@**King Hamlet**)', `<p>hi ${hamlet}, (${hamlet})</p>`],
  ['me@**King Hamlet**', '<p>me@<strong>King Hamlet</strong></p>'],
  [
    '`@**King Hamlet**`\n\n    @**all**',
    '<p><code>@**King Hamlet**</code></p>\n<div class="codehilite"><pre><span></span><code>@**all**\n</code></pre></div>',
  ],
  [
    '> @**King Hamlet** @**all**',
    '<blockquote>\n<p><span class="user-mention silent" data-user-id="1">King Hamlet</span> <span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>\n</blockquote>',
  ],
  [
    '```quote\n@*backend*\n```',
    '<blockquote>\n<p><span class="user-group-mention silent" data-user-group-id="20">backend</span></p>\n</blockquote>',
  ],
  // Channel and topic links (reference §4.20); LATEST is the topic's newest message, topics case-insensitive.
  [
    '#**core>no messages**',
    '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-core/topic/no.20messages">#core &gt; no messages</a></p>',
  ],
  [
    '#**a b.c>some topic.x/é**',
    '<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-a-b.2Ec/topic/some.20topic.2Ex.2F.C3.A9">#a b.c &gt; some topic.x/é</a></p>',
  ],
  ['#**x>y**', '<p><a class="stream" data-stream-id="6" href="/#narrow/channel/6-x.3Ey">#x&gt;y</a></p>'],
  [
    '#**core>**',
    '<p><a class="stream-topic" data-stream-id="2" href="/#narrow/channel/2-core/topic/">#core &gt; <span class="empty-topic-display">general chat</span></a></p>',
  ],
  ['#**nowhere** #**nowhere>t**', '<p>#<strong>nowhere</strong> #<strong>nowhere&gt;t</strong></p>'],
  ['#**secret**', '<p><a class="stream" data-stream-id="3" href="/#narrow/channel/3-secret">#secret</a></p>'],
  ['a#**Denmark**', '<p>a#<strong>Denmark</strong></p>'],
  // Realm emoji: active ones only; a custom emoji shadows the Unicode one of its name.
  [':green_tick:', '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/md/emoji/images/1.png" title="green tick"></p>'],
  [':old_one:', '<p>:old_one:</p>'],
  [':octopus:', '<p><img alt=":octopus:" class="emoji" src="/user_avatars/md/emoji/images/3.png" title="octopus"></p>'],
  // Linkifiers (reference §4.20): boundaries, order, never in code or links.
  ['see #1 and (#2), #3.', `<p>see ${trac(1)} and (${trac(2)}), ${trac(3)}.</p>`],
  ['a#4 #5a', '<p>a#4 #5a</p>'],
  ['**#99**', `<p><strong>${trac(99)}</strong></p>`],
  [
    'zulip/server#12',
    '<p><a href="https://github.com/zulip/server/issues/12" title="https://github.com/zulip/server/issues/12">zulip/server#12</a></p>',
  ],
  ['`#1234`\n\n```\n#1234\n```', '<p><code>#1234</code></p>\n<div class="codehilite"><pre><span></span><code>#1234\n</code></pre></div>'],
  ['[ticket #7](https://example.com/7)', '<p><a href="https://example.com/7">ticket #7</a></p>'],
  ['https://example.com/#8', '<p><a href="https://example.com/#8">https://example.com/#8</a></p>'],
];

describe('renderMessage: mentions, channel links, realm emoji and linkifiers', () => {
  it.each(CASES)('%j', (input, html) => {
    expect(renderMessage(input, as()).html).toBe(html);
  });

  it('renderMarkdown with a context renders the same HTML', () => {
    expect(renderMarkdown('@**King Hamlet** #**Denmark** #1', as())).toBe(renderMessage('@**King Hamlet** #**Denmark** #1', as()).html);
  });
});

describe('channel links follow what the author may know (channelMetadataAccess)', () => {
  const link = (id: number, name: string) =>
    `<p><a class="stream" data-stream-id="${id}" href="/#narrow/channel/${id}-${name}">#${name}</a></p>`;
  it.each([
    ['subscriber of a private channel', USERS.hamlet, '#**secret**', link(3, 'secret')],
    ['administrator, not subscribed', USERS.othello, '#**secret**', link(3, 'secret')],
    ['member, not subscribed', USERS.cordelia, '#**secret**', '<p>#<strong>secret</strong></p>'],
    ['guest, not subscribed: public channel', USERS.guest, '#**Denmark**', '<p>#<strong>Denmark</strong></p>'],
    ['guest: web-public channel', USERS.guest, '#**web**', link(4, 'web')],
    // Without an author: what a spectator may know (channelMetadataAccess with a null user), web-public only.
    ['no author: public channel', null, '#**Denmark**', '<p>#<strong>Denmark</strong></p>'],
    ['no author: web-public channel', null, '#**web**', link(4, 'web')],
    ['no author: private channel', null, '#**secret**', '<p>#<strong>secret</strong></p>'],
  ])('%s', (_label, author, input, html) => {
    expect(renderMessage(input, as(author)).html).toBe(html);
  });
});

// LATEST counts only messages the author may read (messageAccess); when the author may know the channel
// but read none of the topic's messages, the link is the one of a topic without messages.
describe('topic links reveal only the messages the author may read', () => {
  const topicLink = (id: number, name: string, topic: string, latest?: number) =>
    `<p><a class="stream-topic" data-stream-id="${id}" href="/#narrow/channel/${id}-${name}/topic/${topic}${latest === undefined ? '' : `/with/${latest}`}">#${name} &gt; ${topic}</a></p>`;
  it.each([
    ['subscriber of a private channel', USERS.hamlet, '#**secret>plans**', topicLink(3, 'secret', 'plans', 130)],
    ['administrator with metadata access only', USERS.othello, '#**secret>plans**', topicLink(3, 'secret', 'plans')],
    ['protected history: the received message only', USERS.hamlet, '#**vault>plans**', topicLink(7, 'vault', 'plans', 132)],
    ['protected history: a topic from before joining', USERS.hamlet, '#**vault>before**', topicLink(7, 'vault', 'before')],
    ['administrator, protected history', USERS.othello, '#**vault>plans**', topicLink(7, 'vault', 'plans')],
    ['guest: web-public channel', USERS.guest, '#**web>news**', topicLink(4, 'web', 'news', 140)],
    ['no author: web-public channel', null, '#**web>news**', topicLink(4, 'web', 'news', 140)],
  ])('%s', (_label, author, input, html) => {
    expect(renderMessage(input, as(author)).html).toBe(html);
  });

  it('an unreadable topic renders exactly like a made-up one', () => {
    const render = (topic: string) => renderMessage(`#**vault>${topic}**`, as(USERS.othello)).html;
    expect(render('plans').replace(/plans/g, 'nothing')).toBe(render('nothing'));
    expect(render('before').replace(/before/g, 'nothing')).toBe(render('nothing'));
  });
});

describe('Mentions: what sets the message flags', () => {
  const none: Mentions = { userIds: [], groupIds: [], wildcard: null, topicWildcard: false };
  it.each<[string, Mentions]>([
    ['no mention', none],
    ['@**Othello** @**King Hamlet** @**othello|2**', { ...none, userIds: [1, 2] }],
    ['@_**Othello** @_*backend* @_**all** @_**topic**', none],
    ['@*backend* @*role:members*', { ...none, groupIds: [20] }],
    ['@**all**', { ...none, wildcard: 'channel' }],
    ['@**everyone**', { ...none, wildcard: 'channel' }],
    ['@**channel**', { ...none, wildcard: 'channel' }],
    ['@**stream**', { ...none, wildcard: 'channel' }],
    ['@**topic**', { ...none, wildcard: 'topic', topicWildcard: true }],
    ['@**all** @**topic**', { ...none, wildcard: 'channel', topicWildcard: true }],
    ['@**topic** @**all**', { ...none, wildcard: 'channel', topicWildcard: true }],
    ['@**Ghost** @**Nobody** @**Dup Name**', none],
    ['> @**Othello** @**all**\n\n@**Cordelia Lear**', { ...none, userIds: [3] }],
    ['`@**Othello**` @**Dup Name|4**', { ...none, userIds: [4] }],
    ['[@**Othello**](https://example.com)', { ...none, userIds: [2] }],
  ])('%j', (input, mentions) => {
    expect(renderMessage(input, as()).mentions).toEqual(mentions);
  });
});

describe('isMeMessage: starts with "/me " and renders to one paragraph', () => {
  it.each<[string, boolean]>([
    ['/me waves', true],
    ['/me **waves** at @**Othello**', true],
    ['/me waves\nagain', true],
    ['/me', false],
    ['/mewaves', false],
    [' /me waves', false],
    ['hi /me waves', false],
    ['/me waves\n\nsecond paragraph', false],
    ['/me waves https://example.com/pics/logo.png', false],
  ])('%j', (input, isMe) => {
    const { html, isMeMessage } = renderMessage(input, as());
    expect(isMeMessage).toBe(isMe);
    if (isMe) expect(html.startsWith('<p>/me ')).toBe(true);
  });
});
