import { describe, expect, it } from 'vitest';
import type { ApiClient, Params } from '../../src/client.js';
import { ExploreActor } from '../../src/explore/actors.js';
import type { OperationFacts } from '../../src/explore/document.js';
import { Knowledge, ref, type KnownMessage } from '../../src/explore/knowledge.js';
import { archiveChannel, subscribe, unsubscribeOthers, updatePrivacy } from '../../src/explore/operations/channels.js';
import { breakParameter, withInvalid } from '../../src/explore/operations/invalid.js';
import { deleteMessage, moveToChannel, removeReaction } from '../../src/explore/operations/message-moves.js';
import { learnMove, moving } from '../../src/explore/operations/messages.js';
import { createDraft } from '../../src/explore/operations/personal.js';
import type { Choice, Plan, Template } from '../../src/explore/operations/template.js';
import type { Step } from '../../src/explore/types.js';
import { maySeeMessage } from '../../src/explore/visibility.js';
import { teardownWorld } from '../../src/explore/world.js';

/**
 * Planning against a hand-made Knowledge: what each template draws must fit the state (a message the
 * actor can see, a reaction it added), expect success exactly where the state makes a success certain,
 * and follow moves and privacy in the knowledge the oracles judge sight by.
 */

const calls: { who: string; method: string; path: string; params: Params }[] = [];
const record = (method: string, path: string, params: Params, who: { role: string }) => {
  calls.push({ who: who.role, method, path, params });
  return Promise.resolve({ status: 200, headers: {}, body: { result: 'success' }, text: '', index: 0 });
};
const client = { call: record, quiet: record } as unknown as ApiClient;

function actor(name: string, userId: number, channels: number[], guest = false): ExploreActor {
  const a = new ExploreActor(client, name, { role: name, email: `${name}@x.test`, api_key: 'k' }, userId, guest, false);
  a.state = { subscriptions: channels.map((id) => ({ stream_id: id })) };
  return a;
}

function world() {
  const k = new Knowledge();
  for (const [i, priv] of [false, true, false].entries()) {
    const id = 100 + i;
    k.channels.push({ key: k.bind('c', id), id, name: `ch${i}`, private: priv, webPublic: false, archived: false });
  }
  const admin = actor('administrator', 1, [100, 101, 102]);
  const member = actor('member', 2, [100, 101]);
  const other = actor('member_2', 3, [100, 102]);
  const guest = actor('guest', 4, [100], true);
  const message = (channel: string, topic: string, sender: string): KnownMessage => {
    const m: KnownMessage = {
      key: '',
      id: 0,
      sender,
      channel,
      topic,
      participants: [],
      content: 'x',
      deleted: false,
      reactions: new Set(),
    };
    m.id = 1000 + k.messages.length;
    m.key = k.bind('m', m.id);
    k.messages.push(m);
    return m;
  };
  return { k, actors: [admin, member, other, guest], admin, member, other, guest, message };
}

const choice = (over: Partial<Choice> = {}): Choice => ({ template: 0, actor: 0, a: 0, b: 0, c: 0, flag: false, invalid: false, ...over });
const FACTS = { params: [] } as unknown as OperationFacts;

function plan(t: Template, w: ReturnType<typeof world>, who: ExploreActor, over: Partial<Choice> = {}): Plan | null {
  return t.plan({ k: w.k, actor: who, actors: w.actors, choice: choice(over), n: 7 }, FACTS);
}

function stepOf(p: Plan, path: string): Step {
  return { kind: 'x', actor: 'a', operation: 'o', method: 'PATCH', path, params: p.params, expect: p.expect };
}

describe('message templates', () => {
  it('names channels symbolically where the operation takes names, so a script replays on a fresh world', () => {
    const w = world();
    expect(w.k.resolve({ subscriptions: [{ name: { $name: 'c2' } }] })).toEqual({ subscriptions: [{ name: 'ch1' }] });
    expect(() => w.k.resolve({ $name: 'c9' })).toThrow(/c9/);
  });

  it('a topic move takes the one message, those after it, or the whole topic', () => {
    const w = world();
    const [m1, m2, m3] = [w.message('c1', 'alpha', 'member'), w.message('c1', 'Alpha', 'member'), w.message('c1', 'alpha', 'member')];
    w.message('c1', 'beta', 'member');
    const step = (mode: string) => stepOf({ params: { topic: 'gamma', propagate_mode: mode }, expect: 'either' }, `/m/{${m2.key}}`);
    expect(moving(w.k, step('change_one'))).toEqual([m2]);
    expect(moving(w.k, step('change_later')).map((m) => m.key)).toEqual([m2.key, m3.key]);
    expect(new Set(moving(w.k, step('change_all')))).toEqual(new Set([m1, m2, m3]));
    // A mover takes only what it can see: the guest left c3 and holds only the message it received there.
    const held = w.message('c3', 'zeta', 'guest');
    held.receivedBy = new Set(['guest']);
    const later = w.message('c3', 'zeta', 'member_2');
    const inOther = stepOf({ params: { topic: 'gamma', propagate_mode: 'change_all' }, expect: 'either' }, `/m/{${held.key}}`);
    expect(moving(w.k, inOther, w.guest)).toEqual([held]);
    expect(moving(w.k, inOther, w.other)).toEqual([held, later]);
  });

  it('a move to another channel changes who may see the message, and no-leaks still sees where it was', () => {
    const w = world();
    const m = w.message('c1', 'alpha', 'member');
    expect(maySeeMessage(w.other, m, w.k)).toBe(true);
    learnMove(w.k, stepOf({ params: { stream_id: ref('c2'), propagate_mode: 'change_one' }, expect: 'either' }, `/m/{${m.key}}`));
    expect(m.channel).toBe('c2');
    expect(maySeeMessage(w.other, m, w.k)).toBe(false);
    expect(maySeeMessage(w.other, m, w.k, undefined, 'before')).toBe(true);
    w.k.settle();
    expect(maySeeMessage(w.other, m, w.k, undefined, 'before')).toBe(false);
  });

  it('moves to a channel only the actor is subscribed to, other than the message’s', () => {
    const w = world();
    w.message('c1', 'alpha', 'member');
    const p = plan(moveToChannel, w, w.member)!;
    expect(p.params.stream_id).toEqual(ref('c2'));
  });

  it('an administrator’s deletion must succeed; a member deletes only its own, as the realm allows', () => {
    const w = world();
    w.message('c1', 'alpha', 'member_2');
    expect(plan(deleteMessage, w, w.admin)!.expect).toBe('success');
    expect(plan(deleteMessage, w, w.member)).toBeNull();
    w.message('c1', 'alpha', 'member');
    expect(plan(deleteMessage, w, w.member)!.expect).toBe('either');
  });

  it('removes only a reaction the actor added, on a message it can see', () => {
    const w = world();
    const m = w.message('c2', 'alpha', 'member');
    m.reactions.add('member_2 smile');
    expect(plan(removeReaction, w, w.member)).toBeNull();
    m.reactions.add('member octopus');
    expect(plan(removeReaction, w, w.member)).toMatchObject({ params: { emoji_name: 'octopus' }, expect: 'success' });
    // member_2 is not in the private channel: it cannot see the message, so nothing to remove.
    expect(plan(removeReaction, w, w.other)).toBeNull();
  });
});

describe('channel templates', () => {
  it('a guest joining a public channel is the server’s call; a member’s must succeed', () => {
    const w = world();
    expect(plan(subscribe, w, w.guest)!.expect).toBe('either');
    expect(plan(subscribe, w, w.member)).toMatchObject({ params: { subscriptions: [{ name: { $name: 'c3' } }] }, expect: 'success' });
  });

  it('privacy changes are followed in the knowledge, with what the channel was', () => {
    const w = world();
    const p = plan(updatePrivacy, w, w.admin)!;
    expect(p).toMatchObject({ params: { is_private: true, history_public_to_subscribers: true }, expect: 'success' });
    updatePrivacy.learn!({ k: w.k, step: stepOf(p, '/s/{c1}'), reply: {} as never, actor: w.admin, actors: w.actors, events: new Map() });
    expect(w.k.channel('c1')).toMatchObject({ private: true, wasPrivate: false });
  });

  it('keeps one channel unarchived, and only an administrator must succeed in unsubscribing others', () => {
    const w = world();
    w.k.channels[0]!.archived = true;
    w.k.channels[1]!.archived = true;
    expect(plan(archiveChannel, w, w.admin)).toBeNull();
    const out = plan(unsubscribeOthers, w, w.admin)!;
    expect(out).toMatchObject({ params: { subscriptions: [{ $name: 'c3' }], principals: [3] }, expect: 'success' });
    expect(plan(unsubscribeOthers, w, w.other)).toMatchObject({ params: { principals: [1] }, expect: 'either' });
  });
});

describe('wrong on purpose', () => {
  const facts = {
    params: [
      { name: 'stream_id', in: 'body', required: true, type: 'integer' },
      { name: 'topic', in: 'body', required: false, type: 'string' },
      { name: 'message_id', in: 'path', required: true, type: 'integer' },
    ],
  } as unknown as OperationFacts;
  const valid: Plan = { params: { stream_id: ref('c1'), topic: 'x' }, expect: 'success', binds: 'm' };

  it('leaves out a required parameter, or sends an integer as text, with the documented error', () => {
    expect(breakParameter(valid, facts, { c: 0 })).toMatchObject({
      params: { topic: 'x' },
      invalid: { status: 400, code: 'REQUEST_VARIABLE_MISSING' },
    });
    expect(breakParameter(valid, facts, { c: 1 })).toMatchObject({
      params: { stream_id: 'ten', topic: 'x' },
      invalid: { status: 400, code: 'BAD_REQUEST' },
    });
    expect(breakParameter({ params: { topic: 'x' }, expect: 'success' }, facts, { c: 0 }).invalid).toBeUndefined();
  });

  it('breaks only a plan the actor may make, and a broken step binds nothing', () => {
    const t = (expect: 'success' | 'either'): Template => ({ name: 't', operation: 'o', weight: 1, plan: () => ({ ...valid, expect }) });
    const ctx = { k: new Knowledge(), actor: {} as ExploreActor, actors: [], choice: choice({ invalid: true }), n: 1 };
    const broken = withInvalid(t('success')).plan(ctx, facts)!;
    expect(broken.invalid).toBeDefined();
    expect(broken.binds).toBeUndefined();
    expect(withInvalid(t('either')).plan(ctx, facts)!.invalid).toBeUndefined();
    expect(withInvalid(t('success')).plan({ ...ctx, choice: choice() }, facts)).toEqual(valid);
  });
});

describe('teardown', () => {
  it('takes back what steps made, newest first, as its owner, then archives the channels', async () => {
    const w = world();
    const p = plan(createDraft, w, w.member)!;
    const id = w.k.bind('d', 55);
    createDraft.learn!({
      k: w.k,
      step: stepOf(p, '/d'),
      bound: id,
      reply: {} as never,
      actor: w.member,
      actors: w.actors,
      events: new Map(),
    });
    w.k.own({ key: 'status:guest', kind: 'status', owner: 'guest', data: {}, undo: { method: 'POST', path: '/s', params: { a: 1 } } });
    w.k.own({ key: 'status:guest', kind: 'status', owner: 'guest', data: {}, undo: { method: 'POST', path: '/later', params: {} } });
    calls.length = 0;
    await teardownWorld(w.k, w.actors);
    expect(calls.slice(0, 2)).toEqual([
      { who: 'guest', method: 'POST', path: '/s', params: { a: 1 } },
      { who: 'member', method: 'DELETE', path: '/api/v1/drafts/55', params: {} },
    ]);
    expect(calls.filter((c) => c.path.startsWith('/api/v1/streams/')).map((c) => c.path)).toEqual([
      '/api/v1/streams/100',
      '/api/v1/streams/101',
      '/api/v1/streams/102',
    ]);
  });
});
