import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/domain/errors.js';
import { MessageWalk } from '../../src/domain/messages/message-walk.js';
import { parseNarrow, type NarrowTerm } from '../../src/domain/messages/narrow.js';
import { compileNarrow, prepareNarrow } from '../../src/domain/messages/narrow-compile.js';
import type { MessageRow, RealmState } from '../../src/store/state.js';
import { ROLES, WORLD, channelId, expectedListable, messages, receivedFlags, useDemo } from '../messages/support.js';

/**
 * The narrow module (domain/messages/narrow*.ts, message-walk.ts): the parameter's shapes with the
 * reference server's texts, the BAD_NARROW errors, and what a narrow matches, compared for every role
 * with a plain scan of the demo realm's messages written from the reference's operator descriptions.
 */

const env = useDemo();
const uid = (role: string) => WORLD.credentials[role]!.user_id;
/** The world file's fields this test reads beyond those support.ts types. */
const world = WORLD as unknown as {
  credentials: Record<string, { email: string }>;
  messages: { direct: { id: number; user_ids: number[] } };
};

function thrown(fn: () => unknown): { status: number; code: string; msg: string; body: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, code: e.code, msg: e.message, body: e.body() };
    throw e;
  }
  throw new Error('expected an ApiError');
}

describe('narrow parameter shapes', () => {
  it('reads objects and legacy pairs, negated defaulting to false', () => {
    expect(
      parseNarrow([{ operator: 'channel', operand: 51 }, ['topic', 'x'], { operator: 'is', operand: 'unread', negated: true }]),
    ).toEqual([
      { operator: 'channel', operand: 51, negated: false },
      { operator: 'topic', operand: 'x', negated: false },
      { operator: 'is', operand: 'unread', negated: true },
    ]);
    expect(parseNarrow([])).toEqual([]);
    expect(parseNarrow([{ operator: 'dm', operand: [14, 15] }])[0]!.operand).toEqual([14, 15]);
  });

  it.each([
    [{}, 'narrow is not a list'],
    [[5], 'Invalid narrow[0]: Value error, dict or list required'],
    [[['a']], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [[['a', 1]], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [[{ operator: 'is' }], 'Invalid narrow[0]: Value error, operand is missing'],
    [[{ operand: 'x' }], 'Invalid narrow[0]: Value error, operator is missing'],
    [[{ operator: 5, operand: 'x' }], 'narrow[0]["operator"] is not a string'],
    [[{ operator: 'is', operand: 'x', negated: 'yes' }], 'narrow[0]["negated"] is not a boolean'],
    [[{ operator: 'channel', operand: [1] }], 'operand is not a string or integer'],
    [[{ operator: 'dm', operand: {} }], 'operand is not a string or an integer list'],
    [[{ operator: 'dm', operand: [1, 'a'] }], 'operand[1] is not an integer'],
    [[{ operator: 'topic', operand: 5 }], 'operand is not a string'],
    [[{ operator: 'search', operand: '  ' }], 'operand cannot be blank.'],
  ])('refuses %j: %s', (value, msg) => {
    expect(thrown(() => parseNarrow(value))).toMatchObject({ status: 400, code: 'BAD_REQUEST', msg });
  });
});

describe('narrow terms the realm cannot satisfy', () => {
  const compile = (narrow: NarrowTerm[], role = 'member') =>
    compileNarrow(env.t, env.t.users[String(uid(role))]!, prepareNarrow(env.t, env.t.users[String(uid(role))]!, narrow));
  const term = (operator: string, operand: NarrowTerm['operand'], negated = false): NarrowTerm => ({ operator, operand, negated });

  it.each([
    [[term('nope', 'x')], 'unknown operator nope'],
    [[term('is', 'shiny')], "unknown 'is' operand shiny"],
    [[term('has', 'toString')], "unknown 'has' operand toString"],
    [[term('in', 'where')], "unknown 'in' operand where"],
    [[term('channel', 'no such channel')], 'unknown channel no such channel'],
    [[term('channel', 99999)], 'unknown channel 99999'],
    [[term('channels', 'all')], 'unknown channels operand all'],
    [[term('sender', 'nobody@example.com')], 'unknown user nobody@example.com'],
    [[term('dm', [14, 99999])], 'unknown user in [14, 99999]'],
    [[term('dm-including', 99999)], 'unknown user 99999'],
    [[term('id', 'abc')], 'Invalid message ID'],
    [[term('channel', 51), term('is', 'dm', true)], 'No message can be both a channel message and direct message'],
    [[term('with', 'abc')], "Invalid 'with' operator"],
    [[term('with', 99999999)], "Invalid 'with' operator"],
  ])('%j → %s', (narrow, desc) => {
    expect(thrown(() => compile(narrow)).body).toEqual({
      result: 'error',
      code: 'BAD_NARROW',
      msg: `Invalid narrow operator: ${desc}`,
      desc,
    });
  });

  it('refuses two with terms as a combination', () => {
    expect(thrown(() => compile([term('with', 1), term('with', 2)])).body).toEqual({
      result: 'error',
      code: 'BAD_NARROW',
      msg: "Invalid narrow operator combination: Duplicate 'with' operators.",
      desc: "Duplicate 'with' operators.",
    });
  });
});

// ---- What a narrow matches, against a plain scan ----

type Rule = (t: RealmState, viewer: number, m: MessageRow, flags: string[] | undefined) => boolean;
interface Case {
  narrow: NarrowTerm[];
  /** Whether the narrow reaches history the viewer never received (reference ok_to_include_history). */
  history: boolean | ((role: string) => boolean);
  rule: Rule;
}
const T = (operator: string, operand: NarrowTerm['operand'], negated = false): NarrowTerm => ({ operator, operand, negated });
const words = (m: MessageRow) => `${m.content} ${m.subject}`.toLowerCase();

function cases(t: RealmState): Record<string, Case> {
  const pub = channelId('public');
  const protectedId = channelId('private_protected');
  const sharedId = channelId('private_shared');
  const dm = world.messages.direct;
  const aTopic = messages(t).find((m) => m.stream_id === pub && m.subject !== '')!.subject;
  const aWord = messages(t)
    .find((m) => m.stream_id === pub && /\b[a-z]{6,}\b/.test(m.content))!
    .content.match(/\b[a-z]{6,}\b/)![0];
  const uidMember = uid('member');
  return {
    'no narrow': { narrow: [], history: false, rule: () => true },
    'public channel by ID (history)': { narrow: [T('channel', pub)], history: true, rule: (_t, _v, m) => m.stream_id === pub },
    'public channel by name, upper case': {
      narrow: [T('stream', WORLD.channels.public!.name.toUpperCase())],
      history: true,
      rule: (_t, _v, m) => m.stream_id === pub,
    },
    'protected private channel (received only)': {
      narrow: [T('channel', protectedId)],
      history: true,
      rule: (_t, _v, m, f) => m.stream_id === protectedId && f !== undefined,
    },
    'shared private channel': { narrow: [T('channel', sharedId)], history: true, rule: (_t, _v, m) => m.stream_id === sharedId },
    'channel and topic (any case)': {
      narrow: [T('channel', pub), T('topic', aTopic.toUpperCase())],
      history: true,
      rule: (_t, _v, m) => m.stream_id === pub && m.subject.toLowerCase() === aTopic.toLowerCase(),
    },
    'not the public channel': { narrow: [T('channel', pub, true)], history: false, rule: (_t, _v, m) => m.stream_id !== pub },
    'is:unread in the channel (no history)': {
      narrow: [T('channel', pub), T('is', 'unread')],
      history: false,
      rule: (_t, _v, m, f) => m.stream_id === pub && f !== undefined && !f.includes('read'),
    },
    'is:dm': { narrow: [T('is', 'dm')], history: false, rule: (_t, _v, m) => m.type === 'private' },
    'is:mentioned (any mention flag), not in:home-muted channels': {
      narrow: [T('is', 'mentioned'), T('in', 'home')],
      history: false,
      rule: (t, v, m, f) =>
        f?.some((x) => x.endsWith('mentioned')) === true && !(m.stream_id !== null && t.subscriptions[`${v}:${m.stream_id}`]?.is_muted),
    },
    'has:reaction': { narrow: [T('has', 'reaction')], history: false, rule: (_t, _v, m) => m.reactions.length > 0 },
    'is:starred': { narrow: [T('is', 'starred')], history: false, rule: (_t, _v, _m, f) => f?.includes('starred') === true },
    'sender by email': {
      narrow: [T('sender', world.credentials.member!.email)],
      history: false,
      rule: (_t, _v, m) => m.sender_id === uidMember,
    },
    'dm with the pair of the world file': {
      narrow: [T('dm', dm.user_ids)],
      history: false,
      rule: (_t, v, m) => m.type === 'private' && same(m.dm_user_ids!, [...new Set([...dm.user_ids, v])]),
    },
    'dm-including member': {
      narrow: [T('dm-including', uidMember)],
      history: false,
      rule: (_t, v, m) => m.type === 'private' && (v === uidMember || m.dm_user_ids!.includes(uidMember)),
    },
    'has:link, not has:reaction': {
      narrow: [T('has', 'link'), T('has', 'reaction', true)],
      history: false,
      rule: (_t, _v, m) => /https?:\/\//.test(m.content) && m.reactions.length === 0,
    },
    'search a word in the channel': {
      narrow: [T('channel', pub), T('search', aWord.toUpperCase())],
      history: true,
      rule: (_t, _v, m) => m.stream_id === pub && new RegExp(`(^|[^\\p{L}\\p{N}_])${aWord}`, 'u').test(words(m)),
    },
    // Guests never get every public channel's history (reference can_access_public_streams).
    'channels:public': {
      narrow: [T('channels', 'public')],
      history: (role) => role !== 'guest',
      rule: (t, _v, m) => m.stream_id !== null && !t.channels[String(m.stream_id)]!.invite_only,
    },
  };
}
const same = (a: number[], b: number[]) => [...a].sort().join() === [...b].sort().join();

describe('what a narrow matches', () => {
  it('equals a plain scan for every role, in both directions from any anchor', () => {
    const t = env.t;
    let nonEmpty = 0;
    for (const [name, c] of Object.entries(cases(t))) {
      for (const role of ROLES) {
        const viewer = t.users[String(uid(role))]!;
        const expected = messages(t)
          .filter((m) => {
            const flags = receivedFlags(t, viewer.user_id, m.id);
            const history = typeof c.history === 'function' ? c.history(role) : c.history;
            const reachable = flags !== undefined || (history && expectedListable(t, viewer.user_id, m));
            return reachable && c.rule(t, viewer.user_id, m, flags);
          })
          .map((m) => m.id);
        const walk = new MessageWalk(t, compileNarrow(t, viewer, prepareNarrow(t, viewer, c.narrow)));
        expect([...walk.ascending(-1)], `${name} as ${role}`).toEqual(expected);
        expect([...walk.descending(Infinity)], `${name} as ${role}`).toEqual([...expected].reverse());
        const middle = expected[Math.floor(expected.length / 2)];
        if (middle !== undefined) {
          expect([...walk.ascending(middle)]).toEqual(expected.filter((id) => id > middle));
          expect([...walk.descending(middle)]).toEqual(expected.filter((id) => id < middle).reverse());
          nonEmpty++;
        }
      }
    }
    // The cases are not vacuous: most of them find messages for most roles.
    expect(nonEmpty).toBeGreaterThan(70);
  });

  it('finds the oldest unread message of a narrow', () => {
    const t = env.t;
    for (const role of ROLES) {
      const viewer = t.users[String(uid(role))]!;
      const muted = (m: MessageRow) => m.stream_id !== null && t.subscriptions[`${viewer.user_id}:${m.stream_id}`]?.is_muted === true;
      const unread = messages(t).filter((m) => {
        const f = receivedFlags(t, viewer.user_id, m.id);
        return f !== undefined && !f.includes('read') && !muted(m);
      });
      const walk = new MessageWalk(t, compileNarrow(t, viewer, []));
      expect(walk.firstUnread(), role).toBe(unread[0]?.id);
    }
  });
});

describe('the with operator', () => {
  const viewerOf = (role: string) => env.t.users[String(uid(role))]!;
  it("becomes the conversation of a message the viewer may read, replacing the narrow's own", () => {
    const m = messages(env.t).find((x) => x.stream_id === channelId('public') && receivedFlags(env.t, uid('member'), x.id) !== undefined)!;
    const terms = prepareNarrow(env.t, viewerOf('member'), [T('topic', 'elsewhere'), T('with', String(m.id)), T('is', 'unread')]);
    expect(terms).toEqual([T('channel', m.stream_id!), T('topic', m.subject), T('is', 'unread')]);
    const dm = messages(env.t).find((x) => x.type === 'private' && x.dm_user_ids!.includes(uid('member')))!;
    expect(prepareNarrow(env.t, viewerOf('member'), [T('with', dm.id)])).toEqual([T('dm', dm.dm_user_ids!)]);
  });

  it('is dropped when the message is not readable but the narrow names a conversation, an error otherwise', () => {
    const hidden = world.messages.direct;
    const outsider = ROLES.find((r) => !hidden.user_ids.includes(uid(r)) && receivedFlags(env.t, uid(r), hidden.id) === undefined)!;
    const kept = [T('channel', channelId('public')), T('topic', 'x')];
    expect(prepareNarrow(env.t, viewerOf(outsider), [...kept, T('with', hidden.id)])).toEqual(kept);
    expect(thrown(() => prepareNarrow(env.t, viewerOf(outsider), [T('with', hidden.id)])).msg).toBe(
      "Invalid narrow operator: Invalid 'with' operator",
    );
  });
});
