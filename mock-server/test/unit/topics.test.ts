import { describe, expect, it } from 'vitest';
import { features } from '../../src/config/features.js';
import {
  checkChannelTopic,
  checkEmptyTopicOnlyTransition,
  effectiveTopicsPolicy,
  presentTopic,
  readTopic,
} from '../../src/domain/topics.js';
import type { TopicsPolicy } from '../../src/store/state.js';

const now = features(412);
const refused = (fn: () => void) => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { code: string }).code;
  }
};

describe('readTopic (§1)', () => {
  it.each([
    ['  castle  ', 412, 'castle'],
    ['general chat', 412, ''],
    ['general chat', 300, ''],
    ['(no topic)', 370, ''],
    ['(no topic)', 369, '(no topic)'],
    ['', 412, ''],
    ['x'.repeat(70), 412, 'x'.repeat(60)],
    ['é'.repeat(61), 412, 'é'.repeat(60)],
  ])('%j at level %i → %j', (raw, level, topic) => {
    expect(readTopic(raw, features(level))).toBe(topic);
  });

  it('refuses a NUL byte', () => {
    expect(() => readTopic('a\u0000b', now)).toThrow('Topic must not contain null bytes');
  });
});

describe('presentTopic (§1, §4.21 empty_topic_name)', () => {
  it('shows the display name to clients without empty-topic support only', () => {
    expect(presentTopic('', { empty_topic_name: false })).toBe('general chat');
    expect(presentTopic('', { empty_topic_name: true })).toBe('');
    expect(presentTopic('castle', { empty_topic_name: false })).toBe('castle');
  });
});

describe('checkChannelTopic (§1, §3 topics_policy)', () => {
  const realm = { topics_policy: 'allow_empty_topic' as const };
  const table: [TopicsPolicy, string, number, string | null][] = [
    ['allow_empty_topic', '', 412, null],
    ['allow_empty_topic', 'castle', 412, null],
    ['disable_empty_topic', '', 412, 'BAD_REQUEST'],
    ['disable_empty_topic', 'castle', 412, null],
    ['empty_topic_only', '', 412, null],
    ['empty_topic_only', 'castle', 412, 'BAD_REQUEST'],
    ['inherit', '', 412, null],
    ['allow_empty_topic', '', 333, 'BAD_REQUEST'],
    ['allow_empty_topic', '', 334, null],
  ];
  it.each(table)('policy %s, topic %j, level %i → %s', (policy, topic, level, code) => {
    expect(refused(() => checkChannelTopic(topic, { topics_policy: policy }, realm, features(level)))).toBe(code);
  });

  it('resolves inherit to the realm default', () => {
    expect(effectiveTopicsPolicy({ topics_policy: 'inherit' }, { topics_policy: 'disable_empty_topic' })).toBe('disable_empty_topic');
    expect(refused(() => checkChannelTopic('', { topics_policy: 'inherit' }, { topics_policy: 'disable_empty_topic' }, now))).toBe(
      'BAD_REQUEST',
    );
  });

  it('reads "(no topic)" and the display name as the empty topic, so a policy refusing "" refuses them', () => {
    for (const raw of ['(no topic)', 'general chat', ' general chat ']) {
      expect(refused(() => checkChannelTopic(readTopic(raw, now), { topics_policy: 'disable_empty_topic' }, realm, now))).toBe(
        'BAD_REQUEST',
      );
    }
  });
});

describe('checkEmptyTopicOnlyTransition (§3)', () => {
  it('allows empty_topic_only only when every message is in the empty topic', () => {
    expect(refused(() => checkEmptyTopicOnlyTransition(['', '']))).toBeNull();
    expect(refused(() => checkEmptyTopicOnlyTransition([]))).toBeNull();
    expect(refused(() => checkEmptyTopicOnlyTransition(['', 'castle']))).toBe('BAD_REQUEST');
  });
});
