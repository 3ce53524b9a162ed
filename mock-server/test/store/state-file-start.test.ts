import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMockServer, type MockServer } from '../../src/app.js';
import type { ServerConfig } from '../../src/config/config.js';

/**
 * Starting on a state file: one server per file (`<state>.lock` holding the pid), a start that fails
 * changes nothing another server uses, what `beforeServing` writes exists before the first answer, and
 * a damaged file is refused with one line saying what to do, or kept aside by --reset.
 */
let dir: string;
let state: string;
const open: MockServer[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-state-start-'));
  state = join(dir, 'state.json');
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const server of open.splice(0)) await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function serve(options: Partial<ServerConfig> = {}, hooks?: Parameters<typeof createMockServer>[1]): Promise<MockServer> {
  const server = await createMockServer({ port: 0, statePath: state, durability: 'write', ...options }, hooks);
  open.push(server);
  return server;
}

/** What the directory holds, each file with its bytes: to tell that a refused start changed nothing. */
async function files(at = dir): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(at)).sort()) out[name] = await readFile(join(at, name), 'utf8');
  return out;
}

describe('one server per state file', () => {
  it('a second server on the same file refuses, naming the first one, and touches none of its files', async () => {
    const first = await serve();
    expect((await readFile(`${state}.lock`, 'utf8')).trim()).toBe(String(process.pid));
    const before = await files();
    const beforeServing = vi.fn();
    await expect(serve({}, { beforeServing })).rejects.toThrow(
      `the state file is in use by another server (pid ${process.pid}, lock ${state}.lock)`,
    );
    expect(beforeServing).not.toHaveBeenCalled();
    expect(await files()).toEqual(before);
    await first.close();
    await expect(stat(`${state}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    // Released on close: the next server starts, on the realms the first one saved.
    const again = await serve();
    expect(again.context.store.realm('demo')).toBeDefined();
  });

  it('takes over the lock of a process that no longer runs, and says so in one line', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await writeFile(`${state}.lock`, `${gone}\n`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await serve();
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      `teamchat-kit: state: took over ${state}.lock from pid ${gone}, which is no longer running`,
    ]);
    expect((await readFile(`${state}.lock`, 'utf8')).trim()).toBe(String(process.pid));
  });

  it("takes over a lock naming this process's pid that this process does not hold (a restarted container's pid 1)", async () => {
    await writeFile(`${state}.lock`, `${process.pid}\n`);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await serve();
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      `teamchat-kit: state: took over ${state}.lock, left by an earlier process with this pid (${process.pid})`,
    ]);
    expect(server.context.store.realm('demo')).toBeDefined();
  });

  it('a start that fails on a port in use writes no state file and leaves no lock', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = taken.address() as { port: number };
      const beforeServing = vi.fn();
      await expect(serve({ port }, { beforeServing })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(beforeServing).not.toHaveBeenCalled();
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
    }
  });
});

describe('the first answer', () => {
  it('waits until beforeServing is done: a request sent meanwhile is answered after it', async () => {
    const events: string[] = [];
    await serve(
      { statePath: null },
      {
        beforeServing: async (server) => {
          const answered = fetch(`${server.url}/api/v1/server_settings`).then((res) => events.push(`answered ${res.status}`));
          // Time enough for a loopback answer, were the server answering yet.
          await new Promise((resolve) => setTimeout(resolve, 200));
          events.push('beforeServing done');
          void answered;
        },
      },
    );
    await vi.waitFor(() => expect(events).toHaveLength(2));
    expect(events).toEqual(['beforeServing done', 'answered 200']);
  });
});

describe('a damaged state file', () => {
  const text = '{"format":"teamchat-kit/state@1","realms":{"secret-key-abc';

  it('is refused with one line naming it and what to do, without its content; it stays as it was', async () => {
    await writeFile(state, text);
    const refused = await serve().catch((e: Error) => e);
    expect(refused).toBeInstanceOf(Error);
    const message = (refused as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain(`state file ${state} is not valid JSON`);
    expect(message).toContain('Start with --reset to keep it aside');
    expect(message).not.toContain('secret-key');
    expect(await files()).toEqual({ 'state.json': text });
  });

  it('with --reset is kept aside as <name>.corrupt-<time>, and the server starts on a new default realm', async () => {
    await writeFile(state, text);
    await writeFile(`${state}.journal`, '{"seq":1,"changes":[]}\nnot a line\n{"seq":3,"changes":[]}\n');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const server = await serve({ reset: true });
    expect(server.context.store.realm('demo')).toBeDefined();
    const names = await readdir(dir);
    const aside = names.find((n) => /^state\.json\.corrupt-\d{4}-\d\d-\d\dT[\d-]+Z$/.test(n));
    expect(aside).toBeDefined();
    expect(await readFile(join(dir, aside!), 'utf8')).toBe(text);
    expect(names).toContain(`state.json.journal.corrupt-${aside!.slice('state.json.corrupt-'.length)}`);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      `teamchat-kit: state: state file ${state} is not valid JSON (at character ${text.length}); kept it as ${join(dir, aside!)} and started afresh (--reset)`,
    ]);
  });

  it('a journal damaged before its last line is refused the same way', async () => {
    await (await serve()).close();
    await writeFile(`${state}.journal`, 'not a line\n{"seq":9,"changes":[]}\n');
    await expect(serve()).rejects.toThrow(
      `state journal ${state}.journal is corrupt at line 1: unparseable line before the end of the file. Start with --reset`,
    );
  });
});
