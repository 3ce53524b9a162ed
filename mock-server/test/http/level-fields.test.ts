import { describe, expect, it } from 'vitest';
import { features } from '../../src/config/features.js';
import { levelFieldsOf, pruneForLevel, type ShapeMemo } from '../../src/http/level-fields.js';
import { loadOperations } from '../../src/http/openapi.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * Fields the document marks `x-feature-level` are left out of the answers of realms below that level
 * (spec §9 and the reference's "New in … (feature level N)" notes), wherever they sit: nested objects, lists,
 * maps, union variants told apart by `type`/`op` (events), allOf parts.
 */

const mark = (name: string) => ({ 'x-feature-level': { name, level: 0 } });
const channel = {
  type: 'object',
  properties: {
    stream_id: { type: 'integer' },
    is_archived: { type: 'boolean', ...mark('archived_channels') },
    can_delete_any_message_group: { type: 'integer', ...mark('channel_delete_permission_groups') },
  },
};
const schema = {
  allOf: [
    { type: 'object', properties: { result: { const: 'success' } } },
    {
      type: 'object',
      properties: {
        streams: { type: 'array', items: channel },
        by_id: { type: 'object', additionalProperties: channel },
        events: {
          type: 'array',
          items: {
            anyOf: [
              {
                type: 'object',
                properties: { type: { const: 'stream' }, op: { const: 'create' }, streams: { type: 'array', items: channel } },
              },
              // Same field name, another kind: never marked there, so never removed there.
              { type: 'object', properties: { type: { const: 'realm' }, op: { const: 'update' }, is_archived: { type: 'boolean' } } },
              {
                type: 'object',
                properties: { type: { type: 'string' }, partial_subscribers: { type: 'array', ...mark('include_subscribers_partial') } },
              },
            ],
          },
        },
      },
    },
  ],
};

const answer = () => ({
  result: 'success',
  streams: [{ stream_id: 1, is_archived: false, can_delete_any_message_group: 3 }],
  by_id: { '1': { stream_id: 1, is_archived: true, can_delete_any_message_group: 3 } },
  events: [
    { type: 'stream', op: 'create', streams: [{ stream_id: 2, is_archived: false }] },
    { type: 'realm', op: 'update', is_archived: true },
    { type: 'other', partial_subscribers: [1] },
  ],
});

describe('fields newer than a realm leave its answers', () => {
  const fields = levelFieldsOf(schema as never, new Map() as ShapeMemo)!;

  it('knows the newest mark, and a realm that has it keeps the very same answer', () => {
    expect(fields.newest).toBe('include_subscribers_partial');
    const body = answer();
    expect(pruneForLevel(body, fields, features(412))).toBe(body);
  });

  it('at 314 removes every marked field where it is marked, and only there', () => {
    const pruned = pruneForLevel(answer(), fields, features(314));
    expect(pruned.streams).toEqual([{ stream_id: 1 }]);
    expect(pruned.by_id).toEqual({ '1': { stream_id: 1 } });
    expect(pruned.events).toEqual([
      { type: 'stream', op: 'create', streams: [{ stream_id: 2 }] },
      { type: 'realm', op: 'update', is_archived: true },
      { type: 'other' },
    ]);
  });

  it('between two levels keeps the older field and drops the newer', () => {
    const pruned = pruneForLevel(answer(), fields, features(406));
    expect(pruned.streams).toEqual([{ stream_id: 1, is_archived: false }]);
    expect(pruned.events[2]).toEqual({ type: 'other' });
  });

  it('never changes the objects it was given (presented objects may be shared)', () => {
    const body = answer();
    const before = structuredClone(body);
    const pruned = pruneForLevel(body, fields, features(314));
    expect(body).toEqual(before);
    // Untouched parts are the same objects, not copies.
    expect(pruned.events[1]).toBe(body.events[1]);
  });

  it('refuses a mark whose name is not in feature-levels.json, and ignores a schema without marks', () => {
    const bad = { type: 'object', properties: { x: { type: 'integer', 'x-feature-level': { name: 'no_such_feature', level: 1 } } } };
    expect(() => levelFieldsOf(bad as never, new Map())).toThrow(/no_such_feature/);
    expect(levelFieldsOf({ type: 'object', properties: { x: { type: 'integer' } } } as never, new Map())).toBeNull();
  });

  it("reads the document's marks: GET /streams and register carry them, the event list too", async () => {
    const ops = new Map((await loadOperations()).map((o) => [o.operationId, o]));
    for (const id of ['get-streams', 'register-queue', 'get-events']) expect(ops.get(id)!.levelFields).not.toBeNull();
  });
});

describe('on the wire', () => {
  it('a realm at 406 answers channels without the delete groups of 407, in GET /streams and in register', async () => {
    const server = await startTestServer({ featureLevel: 406 });
    try {
      const admin = credentials(server).administrator!;
      const streams = await call(server, 'GET', '/api/v1/streams', { as: admin });
      const first = (streams.body.streams as Record<string, unknown>[])[0]!;
      expect(first).toHaveProperty('is_archived');
      expect(first).not.toHaveProperty('can_delete_any_message_group');
      const register = await call(server, 'POST', '/api/v1/register', { as: admin, form: { fetch_event_types: '["stream"]' } });
      const listed = (register.body.streams as Record<string, unknown>[])[0]!;
      expect(listed).not.toHaveProperty('can_delete_own_message_group');
      expect(listed).toHaveProperty('can_send_message_group');
    } finally {
      await server.close();
    }
  });
});
