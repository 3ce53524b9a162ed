import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/app.js';
import { create as createDrafts, storedDrafts } from '../drafts/support.js';
import { callControl, credentials } from '../helpers/test-server.js';
import { tables, nowOf } from '../helpers/harness.js';
import { channelForm, deliveredMessage, schedule } from './support.js';

/**
 * With the defaults (system clock, no epoch) a realm's time is the wall clock, so a
 * client computing "now + 60 s" from its own clock (Date.now(), as apps do) gets the reference server's
 * behaviour. Time is moved with the control API, never waited for. Real time does pass while a test
 * runs (a second or two on a busy machine), hence the small tolerances.
 */
const wallNow = () => Math.floor(Date.now() / 1000);
const SLACK = 5;

const advanceServer = async (server: MockServer, seconds: number) => {
  const res = await callControl(server, 'POST', '/__mock/clock/advance', { seconds: String(seconds) });
  expect(res.status).toBe(200);
};

describe('a server with the default clock', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await createMockServer({ port: 0, statePath: null });
  });
  afterAll(() => server.close());

  it('starts the demo realm and new realms at the wall-clock time, with their content around it', async () => {
    const before = wallNow();
    const made = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'fresh' });
    expect(made.status).toBe(201);
    for (const realmId of ['demo', 'fresh']) {
      const now = nowOf(server, realmId);
      expect(now).toBeGreaterThanOrEqual(before - SLACK);
      expect(now).toBeLessThanOrEqual(wallNow());
      const t = tables(server, realmId);
      const latest = Math.max(...Object.values(t.messages).map((m) => m.timestamp));
      // History ends shortly before now (not ten months ago); what is scheduled lies ahead.
      expect(latest).toBeLessThanOrEqual(now);
      expect(latest).toBeGreaterThan(now - 7 * 86_400);
      const pending = Object.values(t.scheduled_messages).filter((s) => !s.failed);
      expect(pending.length).toBeGreaterThan(0);
      expect(pending.every((s) => s.scheduled_delivery_timestamp > now)).toBe(true);
    }
  });

  it('gives a draft saved without a timestamp the wall-clock time', async () => {
    const member = credentials(server).member!;
    const res = await createDrafts(server, member, [{ type: 'stream', to: [51], topic: 'plans', content: 'Now-ish' }]);
    expect(res.status, res.text).toBe(200);
    const [id] = res.body.ids as number[];
    const draft = storedDrafts(server, 'demo', member.user_id).find((d) => d.id === id)!;
    expect(Math.abs(draft.timestamp - wallNow())).toBeLessThanOrEqual(SLACK);
  });

  it('refuses wall-clock now - 60 s with the spec error and stores nothing', async () => {
    const member = credentials(server).member!;
    const before = JSON.stringify(tables(server, 'demo').scheduled_messages);
    const res = await schedule(server, member, channelForm(server, 'demo', { scheduled_delivery_timestamp: String(wallNow() - 60) }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled delivery time must be in the future.' });
    expect(JSON.stringify(tables(server, 'demo').scheduled_messages)).toBe(before);
  });

  it('delivers a message scheduled for wall-clock now + 60 s about 60 s later', async () => {
    const member = credentials(server).member!;
    const at = wallNow() + 60;
    const res = await schedule(
      server,
      member,
      channelForm(server, 'demo', { content: 'In a minute', scheduled_delivery_timestamp: String(at) }),
    );
    expect(res.status, res.text).toBe(200);
    const id = res.body.scheduled_message_id as number;

    await advanceServer(server, 60 - 2 * SLACK);
    expect(deliveredMessage(server, 'demo', id)).toBeUndefined();
    await advanceServer(server, 3 * SLACK);
    const message = deliveredMessage(server, 'demo', id);
    expect(message?.content).toBe('In a minute');
    expect(message!.timestamp).toBeGreaterThanOrEqual(at);
    expect(message!.timestamp).toBeLessThanOrEqual(at + 2 * SLACK);
  });
});

describe('a realm reloaded from the state file', () => {
  let dir = '';
  const open: MockServer[] = [];
  const serve = async () => {
    const server = await createMockServer({ port: 0, statePath: join(dir, 'state.json'), durability: 'write' });
    open.push(server);
    return server;
  };
  afterAll(async () => {
    for (const server of open) await server.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('goes on following the wall clock after a restart, and a realm with an epoch keeps its distance to it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamchat-wall-clock-'));
    const first = await serve();
    const dayAgo = wallNow() - 86_400;
    expect((await callControl(first, 'POST', '/__mock/realms', { realm_id: 'yesterday', epoch: String(dayAgo) })).status).toBe(201);
    const messagesBefore = Object.keys(tables(first, 'demo').messages).length;
    await first.close();

    const second = await serve();
    // Restored, not regenerated; its time is the wall clock's, not the time it was made at.
    expect(Object.keys(tables(second, 'demo').messages)).toHaveLength(messagesBefore);
    expect(Math.abs(nowOf(second, 'demo') - wallNow())).toBeLessThanOrEqual(SLACK);
    const yesterday = nowOf(second, 'yesterday');
    expect(yesterday).toBeGreaterThanOrEqual(dayAgo);
    expect(Math.abs(yesterday - (wallNow() - 86_400))).toBeLessThanOrEqual(SLACK);
    expect(tables(second, 'yesterday').realm.realm.epoch).toBe(dayAgo);
  });
});
