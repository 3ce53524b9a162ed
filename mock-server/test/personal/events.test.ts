import { describe, expect, it } from 'vitest';
import type { Reply } from '../helpers/test-server.js';
import { drain, openQueue, useTestRealm, type Event } from '../helpers/harness.js';
import {
  addView,
  createSnippet,
  deleteSnippet,
  editSnippet,
  editView,
  LINK_VIEW,
  LINK_VIEW_NAME,
  listSnippets,
  listViews,
  removeView,
} from './support.js';

/**
 * Events of snippets and views (reference §6, "Event payloads"): per-user data, so each change goes to
 * every queue of its owner (the queue of the client that made it included) and to nobody else, whatever
 * their role. A change that changes nothing, and a refused request, send nothing.
 */
const env = useTestRealm();
const OTHERS = ['owner', 'administrator', 'moderator', 'member_2', 'guest', 'bot'];

/** Runs `change` as observed by two queues of member and one queue of each other role. */
async function observe(change: () => Promise<Reply>): Promise<{ reply: Reply; mine: Event[][]; others: Record<string, Event[]> }> {
  const member = env.who.member!;
  const mineQueues = [(await openQueue(env.server, member)).queueId, (await openQueue(env.server, member)).queueId];
  const otherQueues = Object.fromEntries(
    await Promise.all(OTHERS.map(async (r) => [r, (await openQueue(env.server, env.who[r]!)).queueId] as const)),
  );
  const reply = await change();
  const mine = await Promise.all(mineQueues.map((q) => drain(env.server, member, q)));
  const others = Object.fromEntries(
    await Promise.all(OTHERS.map(async (r) => [r, await drain(env.server, env.who[r]!, otherQueues[r]!)] as const)),
  );
  return { reply, mine, others };
}

const nobodyElse = Object.fromEntries(OTHERS.map((r) => [r, []]));
const now = () => (env.server.control.clock(env.realm) as { now: number }).now;

describe('saved_snippets events', () => {
  it('create: `add` with the snippet as listed', async () => {
    const { reply, mine, others } = await observe(() => createSnippet(env.server, env.who.member!, { title: ' Hi ', content: ' Hello ' }));
    expect(reply.body.saved_snippet_id).toBe(4);
    const event = { type: 'saved_snippets', op: 'add', saved_snippet: { id: 4, title: 'Hi', content: 'Hello', date_created: now() } };
    expect(mine).toEqual([[event], [event]]);
    expect(others).toEqual(nobodyElse);
    expect((await listSnippets(env.server, env.who.member!))[2]).toEqual(event.saved_snippet);
  });

  it('edit: `update` with the whole snippet', async () => {
    const [first] = await listSnippets(env.server, env.who.member!);
    const { mine, others } = await observe(() => editSnippet(env.server, env.who.member!, 1, { content: 'New' }));
    const event = { type: 'saved_snippets', op: 'update', saved_snippet: { ...first, content: 'New' } };
    expect(mine).toEqual([[event], [event]]);
    expect(others).toEqual(nobodyElse);
  });

  it('delete: `remove` with saved_snippet_id', async () => {
    const { mine, others } = await observe(() => deleteSnippet(env.server, env.who.member!, 2));
    expect(mine).toEqual([
      [{ type: 'saved_snippets', op: 'remove', saved_snippet_id: 2 }],
      [{ type: 'saved_snippets', op: 'remove', saved_snippet_id: 2 }],
    ]);
    expect(others).toEqual(nobodyElse);
  });
});

describe('navigation_view events', () => {
  it('add a built-in view: `add` without a name, as the snapshot and the list present it', async () => {
    const { mine, others } = await observe(() => addView(env.server, env.who.member!, { fragment: 'recent', is_pinned: 'false' }));
    const event = { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'recent', is_pinned: false } };
    expect(mine).toEqual([[event], [event]]);
    expect(others).toEqual(nobodyElse);
  });

  it('add a custom view: `add` with its name', async () => {
    const { mine } = await observe(() =>
      addView(env.server, env.who.member!, { fragment: 'narrow/is/alerted', is_pinned: 'true', name: ' Alerts ' }),
    );
    expect(mine[0]).toEqual([
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' } },
    ]);
  });

  const edits: [string, string, Record<string, string>, Record<string, unknown>][] = [
    ['is_pinned only', LINK_VIEW, { is_pinned: 'true' }, { is_pinned: true }],
    ['name only', LINK_VIEW, { name: ' Links ' }, { name: 'Links' }],
    ['both', LINK_VIEW, { name: 'Links', is_pinned: 'true' }, { is_pinned: true, name: 'Links' }],
    [
      'a value equal to the stored one is still sent',
      LINK_VIEW,
      { is_pinned: 'false', name: LINK_VIEW_NAME },
      { is_pinned: false, name: LINK_VIEW_NAME },
    ],
    ['a built-in view, through a percent-encoded path', 'inbox', { is_pinned: 'false' }, { is_pinned: false }],
  ];
  it.each(edits)('edit, %s: `update` with the fragment and only the fields sent', async (_name, fragment, form, data) => {
    const { mine, others } = await observe(() => editView(env.server, env.who.member!, encodeURIComponent(fragment), form));
    const event = { type: 'navigation_view', op: 'update', fragment, data };
    expect(mine).toEqual([[event], [event]]);
    expect(others).toEqual(nobodyElse);
  });

  it('remove: `remove` with the fragment', async () => {
    const { mine, others } = await observe(() => removeView(env.server, env.who.member!, LINK_VIEW));
    expect(mine).toEqual([
      [{ type: 'navigation_view', op: 'remove', fragment: LINK_VIEW }],
      [{ type: 'navigation_view', op: 'remove', fragment: LINK_VIEW }],
    ]);
    expect(others).toEqual(nobodyElse);
  });
});

describe('no event without a change', () => {
  const quiet: [string, () => Promise<Reply>, number][] = [
    ['a snippet edit with nothing sent', () => editSnippet(env.server, env.who.member!, 1, {}), 200],
    ['a view edit with nothing sent', () => editView(env.server, env.who.member!, 'inbox', {}), 200],
    ['a refused snippet creation', () => createSnippet(env.server, env.who.member!, { title: 'A', content: ' ' }), 400],
    ["an edit of another user's snippet", () => editSnippet(env.server, env.who.member!, 3, { title: 'Mine' }), 404],
    ['a duplicate view', () => addView(env.server, env.who.member!, { fragment: 'inbox', is_pinned: 'true' }), 400],
    ['an edit of a view never stored', () => editView(env.server, env.who.member!, 'recent', { is_pinned: 'true' }), 404],
    ['a removal of a view never stored', () => removeView(env.server, env.who.member!, 'recent'), 404],
  ];
  it.each(quiet)('%s', async (_name, change, status) => {
    const { reply, mine, others } = await observe(change);
    expect(reply.status).toBe(status);
    expect(mine).toEqual([[], []]);
    expect(others).toEqual(nobodyElse);
  });
});

describe('register snapshot and queue filters', () => {
  it('the snapshot presents snippets and views exactly as the lists do', async () => {
    const { snapshot } = await openQueue(env.server, env.who.member!, { fetch_event_types: '["saved_snippets", "navigation_views"]' });
    expect(snapshot.saved_snippets).toHaveLength(2);
    expect(snapshot.saved_snippets).toEqual(await listSnippets(env.server, env.who.member!));
    expect(snapshot.navigation_views).toEqual(await listViews(env.server, env.who.member!));
  });

  it('event_types limits a queue to the types it asked for', async () => {
    const member = env.who.member!;
    const snippetsOnly = (await openQueue(env.server, member, { event_types: '["saved_snippets"]' })).queueId;
    const viewsOnly = (await openQueue(env.server, member, { event_types: '["navigation_view"]' })).queueId;
    await createSnippet(env.server, member, { title: 'A', content: 'a' });
    await addView(env.server, member, { fragment: 'feed', is_pinned: 'true' });
    expect((await drain(env.server, member, snippetsOnly)).map((e) => e.type)).toEqual(['saved_snippets']);
    expect((await drain(env.server, member, viewsOnly)).map((e) => `${e.type}/${e.op}`)).toEqual(['navigation_view/add']);
  });
});
