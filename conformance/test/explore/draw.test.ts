import { describe, expect, it } from 'vitest';
import { touched } from '../../src/explore/draw.js';
import { Knowledge } from '../../src/explore/knowledge.js';
import { pick, topicKey } from '../../src/explore/operations/template.js';
import type { Step } from '../../src/explore/types.js';

/** What a step touches (the focus the next draw may follow on from) and how a template's pick prefers it. */
function world(): Knowledge {
  const k = new Knowledge();
  for (const id of [11, 12])
    k.channels.push({ key: k.bind('c', id), id, name: `c${id}`, private: false, webPublic: false, archived: false });
  k.bindAs('m3', 103);
  k.messages.push({
    key: 'm3',
    id: 103,
    sender: 'member',
    channel: 'c2',
    topic: 'Beta',
    participants: [],
    content: '',
    deleted: false,
    reactions: new Set(),
  });
  return k;
}

const step = (over: Partial<Step>): Step => ({
  kind: 'x',
  actor: 'member',
  operation: 'op',
  method: 'POST',
  path: '/api/v1/x',
  params: {},
  expect: 'success',
  ...over,
});

describe('touched', () => {
  it('is what a step made, alone, when it made something', () => {
    const k = world();
    expect(touched(k, step({ params: { to: { $ref: 'c2' }, topic: 'beta' }, binds: 'm3' }))).toEqual(['m3']);
  });

  it('is what a step names, then each message where it is now, then the topic its parameters name', () => {
    const k = world();
    const move = step({ path: '/api/v1/messages/{m3}', params: { topic: 'Beta' } });
    expect(touched(k, move)).toEqual(['m3', 'c2/beta', 'c2']);
    const read = step({ params: { stream_id: { $ref: 'c1' }, topic_name: 'Alpha' } });
    expect(touched(k, read)).toEqual(['c1', 'c1/alpha']);
    const leave = step({ params: { subscriptions: [{ $name: 'c2' }] } });
    expect(touched(k, leave)).toEqual(['c2']);
  });

  it('a step that failed to make what it would have made touches what it names', () => {
    const k = world();
    expect(touched(k, step({ params: { to: { $ref: 'c1' }, topic: 'gamma' }, binds: 'm9' }))).toEqual(['c1', 'c1/gamma']);
  });
});

describe('pick with a focus', () => {
  const list = [{ key: 'c1' }, { key: 'c2' }, { key: 'c3' }];
  it('takes the element the focus names first, else the drawn one', () => {
    expect(pick(list, 0, ['m3', 'c3', 'c2'])?.key).toBe('c3');
    expect(pick(list, 1, ['m3'])?.key).toBe('c2');
    expect(pick(list, 4)?.key).toBe('c2');
    expect(pick([], 0, ['c1'])).toBeNull();
  });

  it('names topics by channel, without regard to case', () => {
    expect(pick(['alpha', 'Beta'], 0, [topicKey('c2', 'beta')], (t) => topicKey('c2', t))).toBe('Beta');
    expect(pick(['alpha', 'Beta'], 0, [topicKey('c1', 'beta')], (t) => topicKey('c2', t))).toBe('alpha');
  });
});
