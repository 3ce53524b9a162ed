import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, stopped } from '../helpers/spawn-server.js';

/**
 * End to end over HTTP: `teamchat serve` on a state file, killed with SIGKILL while writes are in
 * flight, restarted on the same file. Every write the server acknowledged must be there.
 *
 * Each test has its own state file and servers, and most of a test is waiting for a child to start or stop: the
 * three run at the same time.
 */
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

const serve = (statePath: string) => spawnServer(['--state', statePath]);

async function post(url: string, body: Record<string, string>) {
  const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe.concurrent('durability of the JSON state file', () => {
  it('restores every realm after a clean restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-restart-'));
    dirs.push(dir);
    const state = join(dir, 'state.json');
    const first = await serve(state);
    const created = await post(`${first.url}/__mock/realms`, { realm_id: 'kept', feature_level: '300' });
    expect(created.status).toBe(201);
    first.child.kill('SIGTERM');
    await stopped(first.child);
    const second = await serve(state);
    try {
      const realms = (await (await request(`${second.url}/__mock/realms`)).body.json()) as {
        realms: { realm_id: string; feature_level: number }[];
      };
      expect(realms.realms.map((r) => [r.realm_id, r.feature_level]).sort()).toEqual([
        ['demo', 412],
        ['kept', 300],
      ]);
    } finally {
      second.child.kill('SIGTERM');
      await stopped(second.child);
    }
  }, 60_000);

  it('keeps every acknowledged write when killed with SIGKILL during writes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-kill-'));
    dirs.push(dir);
    const state = join(dir, 'state.json');
    const { child, url } = await serve(state);
    const acknowledged: string[] = [];
    let n = 0;
    let killed = false;
    // Four writers in parallel, each creating realms (a whole-realm write, ~100 KB) until the kill.
    const writer = async () => {
      while (!killed) {
        const id = `w-${n++}`;
        try {
          const res = await post(`${url}/__mock/realms`, { realm_id: id });
          if (res.status === 201) acknowledged.push(id);
        } catch {
          return; // the connection died with the server
        }
        if (acknowledged.length >= 24 && !killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    await stopped(child);
    expect(child.signalCode).toBe('SIGKILL');
    const again = await serve(state);
    try {
      const realms = (await (await request(`${again.url}/__mock/realms`)).body.json()) as { realms: { realm_id: string }[] };
      const present = new Set(realms.realms.map((r) => r.realm_id));
      expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(24);
    } finally {
      again.child.kill('SIGTERM');
      await stopped(again.child);
    }
  }, 60_000);

  it('stops on SIGTERM during writes with exit code 0, keeping every acknowledged write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-term-'));
    dirs.push(dir);
    const state = join(dir, 'state.json');
    const { child, url } = await serve(state);
    const acknowledged: string[] = [];
    let n = 0;
    let signalled = false;
    const writer = async () => {
      while (!signalled || n < 1_000) {
        const id = `t-${n++}`;
        try {
          const res = await post(`${url}/__mock/realms`, { realm_id: id });
          if (res.status === 201) acknowledged.push(id);
        } catch {
          return; // the server has closed its connections
        }
        if (acknowledged.length >= 8 && !signalled) {
          signalled = true;
          child.kill('SIGTERM');
        }
      }
    };
    await Promise.all([writer(), writer(), writer()]);
    await stopped(child);
    expect(child.exitCode).toBe(0);
    const again = await serve(state);
    try {
      const realms = (await (await request(`${again.url}/__mock/realms`)).body.json()) as { realms: { realm_id: string }[] };
      const present = new Set(realms.realms.map((r) => r.realm_id));
      expect(acknowledged.filter((id) => !present.has(id))).toEqual([]);
      expect(acknowledged.length).toBeGreaterThanOrEqual(8);
    } finally {
      again.child.kill('SIGTERM');
      await stopped(again.child);
    }
  }, 60_000);
});
