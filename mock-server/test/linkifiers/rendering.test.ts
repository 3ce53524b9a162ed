import { describe, expect, it } from 'vitest';
import { send, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { add, NEXT_ID, remove, reorder, update } from './support.js';

/**
 * Linkifier changes take effect at once (spec §2.5 topic_links, §2.11, §4.20): the renderer reads the
 * realm's linkifiers on every rendering (domain/markdown/env.ts), so POST /messages/render and messages
 * sent after a change use the new set and order. A message keeps the HTML it was sent with (the
 * reference server does not re-render history), while its topic_links follow the current linkifiers.
 */
const env = useTestRealm();

const link = (url: string, text: string) => `<a href="${url}" title="${url}">${text}</a>`;
const render = async (content: string) =>
  (await call(env.server, 'POST', '/api/v1/messages/render', { as: env.who.member!, form: { content } })).body.rendered;
const fetch = async (id: number) =>
  (await call(env.server, 'GET', `/api/v1/messages/${id}`, { as: env.who.member! })).body.message as Record<string, unknown>;
const sendTo51 = async (topic: string, content: string) => {
  const res = await send(env.server, env.who.member!, { type: 'stream', to: '51', topic, content });
  expect(res.status, res.text).toBe(200);
  return res.body.id as number;
};

const ZUL = { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://zul.example.com/{id}' };

describe('adding, updating and removing', () => {
  it('a message sent after adding renders the link and lists it in topic_links; after removal neither', async () => {
    expect(await render('See ZUL-12')).toBe('<p>See ZUL-12</p>');
    await add(env, env.who.administrator!, ZUL.pattern, ZUL.url_template);
    const url = 'https://zul.example.com/12';
    expect(await render('See ZUL-12')).toBe(`<p>See ${link(url, 'ZUL-12')}</p>`);

    const before = await sendTo51('bug ZUL-12', 'See ZUL-12');
    const sent = await fetch(before);
    expect(sent.content).toBe(`<p>See ${link(url, 'ZUL-12')}</p>`);
    expect(sent.topic_links).toEqual([{ text: 'ZUL-12', url }]);

    await remove(env, env.who.administrator!, NEXT_ID);
    expect(await render('See ZUL-12')).toBe('<p>See ZUL-12</p>');
    const after = await fetch(await sendTo51('bug ZUL-12', 'See ZUL-12'));
    expect(after.content).toBe('<p>See ZUL-12</p>');
    expect(after.topic_links).toEqual([]);

    // The earlier message keeps its HTML; its topic links follow the realm's linkifiers as they are now.
    const old = await fetch(before);
    expect(old.content).toBe(`<p>See ${link(url, 'ZUL-12')}</p>`);
    expect(old.topic_links).toEqual([]);
  });

  it('an update changes the URL of later renderings and of topic_links', async () => {
    await add(env, env.who.administrator!, ZUL.pattern, ZUL.url_template);
    const id = await sendTo51('ZUL-7', 'ZUL-7');
    await update(env, env.who.administrator!, NEXT_ID, 'ZUL-(?P<n>\\d+)', 'https://new.example.com/z/{n}');
    const url = 'https://new.example.com/z/7';
    expect(await render('ZUL-7')).toBe(`<p>${link(url, 'ZUL-7')}</p>`);
    expect((await fetch(id)).topic_links).toEqual([{ text: 'ZUL-7', url }]);
  });

  it('a removed demo linkifier no longer links, the other one still does', async () => {
    await remove(env, env.who.administrator!, 1);
    expect(await render('#42 and acme/rockets#7')).toBe(
      `<p>#42 and ${link('https://github.com/acme/rockets/issues/7', 'acme/rockets#7')}</p>`,
    );
  });
});

describe('order decides overlapping matches', () => {
  // Both match `#123`; the first in display order wins (reference server: linkifiers apply in order).
  const OTHER = { pattern: '#(?P<num>[0-9]{3})', url_template: 'https://other.example.com/{num}' };
  const tickets = link('https://tickets.example.com/ticket/123', '#123');
  const other = link('https://other.example.com/123', '#123');

  it('a new linkifier goes last, so the demo tickets linkifier keeps #123 until a reorder puts it first', async () => {
    await add(env, env.who.administrator!, OTHER.pattern, OTHER.url_template);
    expect(await render('#123')).toBe(`<p>${tickets}</p>`);
    const id = await sendTo51('#123', 'x');
    expect((await fetch(id)).topic_links).toEqual([{ text: '#123', url: 'https://tickets.example.com/ticket/123' }]);

    await reorder(env, env.who.administrator!, [NEXT_ID, 1, 2]);
    expect(await render('#123')).toBe(`<p>${other}</p>`);
    expect((await fetch(await sendTo51('t', '#123'))).content).toBe(`<p>${other}</p>`);
    expect((await fetch(id)).topic_links).toEqual([{ text: '#123', url: 'https://other.example.com/123' }]);

    await reorder(env, env.who.administrator!, [1, 2, NEXT_ID]);
    expect(await render('#123')).toBe(`<p>${tickets}</p>`);
  });
});
