import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js): what client developers point at the mock.
import zulip from 'zulip-js';
import { createMockServer, type MockServer } from '../../src/app.js';

export type Answer = Record<string, unknown>;

/** What every zulip-js client offers; each test file adds the resources it calls (`C`). */
export interface ZulipJsBase {
  callEndpoint(endpoint: string, method?: string, params?: Record<string, unknown>): Promise<Answer>;
}

export interface ZulipJsServer<C> {
  /** A client of the given role, logged in with the zuliprc file the server wrote. */
  client(role: string): Promise<C>;
  /** Email and API key of a role, as its zuliprc file holds them. */
  credentials(role: string): Promise<{ email: string; key: string }>;
  /** Stops the server and starts it again on the same state file (`state: true` only). */
  restart(): Promise<void>;
  readonly url: string;
  /** The temporary directory holding the zuliprc files (and the state file). */
  readonly dir: string;
}

/**
 * A mock server for one test file, started before its tests and closed (its directory removed) after them: in
 * memory, or with `state: true` on a state file that `restart()` starts it again on. It runs in the test's process
 * with `teamchat serve`'s defaults (running clock, no epoch) and the zuliprc files serve writes, in serve's format;
 * that `teamchat serve` itself writes files zulip-js reads is http/stock-js-client.test.ts's to show.
 */
export function useZulipJsServer<C extends ZulipJsBase>(options: { state?: boolean } = {}): ZulipJsServer<C> {
  let dir = '';
  let server: MockServer | undefined;
  const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<C>;
  const serve = async () => {
    const started = await createMockServer({ port: 0, statePath: options.state ? join(dir, 'state.json') : null });
    for (const [role, who] of Object.entries(started.control.world(started.context.config.defaultRealm).credentials)) {
      if (!who?.api_key) continue;
      await writeFile(rc(role), `[api]\nemail=${who.email}\nkey=${who.api_key}\nsite=${started.url}\n`, { mode: 0o600 });
    }
    return started;
  };
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamchat-zulip-js-'));
    server = await serve();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const rc = (role: string) => join(dir, `zuliprc-${role}`);
  return {
    client: (role) => connect({ zuliprc: rc(role) }),
    async credentials(role) {
      const text = await readFile(rc(role), 'utf8');
      return { email: /email=(.*)/.exec(text)![1]!, key: /key=(.*)/.exec(text)![1]! };
    },
    async restart() {
      if (!options.state) throw new Error('restart() needs useZulipJsServer({ state: true })');
      await server?.close();
      server = await serve();
    },
    get url() {
      return server!.url;
    },
    get dir() {
      return dir;
    },
  };
}
