import { readFile } from 'node:fs/promises';
import { deriveApiKey } from '../fixtures/credentials.js';
import { demoRealm } from '../fixtures/demo-cache.js';
import { shiftRealmTimes } from '../fixtures/shift-times.js';
import type { RealmState } from '../store/state.js';

/**
 * Realms from fixtures. A fixture is the generated demo realm (`demo`, deterministic per seed) or an
 * exported realm file (`GET /__mock/realms/{id}/export`). Every instantiated realm gets API keys of
 * its own, so the key alone still selects the realm when many copies of one fixture run side by side.
 */
export const REALM_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface RealmExport {
  format: 'teamchat-kit/realm@1';
  /** The realm's time when exported: a realm created from the file starts there (unless given an epoch). */
  now: number;
  realm: RealmState;
}

export interface Instantiated {
  tables: RealmState;
  /** The realm's time at creation. */
  start: number;
}

export interface InstantiateOptions {
  realmId: string;
  seed: number;
  featureLevel: number;
  /** The start asked for (UNIX seconds); absent: `now` for the demo realm, its recorded time for an export. */
  epoch: number | undefined;
  /** The current time, where a demo realm starts by default. */
  now: number;
}

/**
 * The demo realm is generated around its start. An export keeps its recorded time unless an epoch is
 * asked for; then every stored time moves with it, so what was an hour ago is still an hour ago.
 */
export async function instantiateFixture(fixture: string, opts: InstantiateOptions): Promise<Instantiated> {
  if (fixture === 'demo') {
    const start = opts.epoch ?? opts.now;
    return { tables: await demoRealm({ realmId: opts.realmId, seed: opts.seed, featureLevel: opts.featureLevel, epoch: start }), start };
  }
  const exported = await readExport(fixture);
  const tables = structuredClone(exported.realm);
  const realm = tables.realm.realm;
  tables.realm.realm = { ...realm, id: opts.realmId, fixture, seed: opts.seed, feature_level: opts.featureLevel };
  for (const user of Object.values(tables.users)) user.api_key = deriveApiKey(opts.seed, opts.realmId, user.user_id);
  if (opts.epoch === undefined) return { tables, start: exported.now };
  shiftRealmTimes(tables, opts.epoch - exported.now);
  return { tables, start: opts.epoch };
}

async function readExport(path: string): Promise<RealmExport> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`fixture ${path}: ${(error as Error).message}`);
  }
  const value = parsed as Partial<RealmExport>;
  if (value?.format !== 'teamchat-kit/realm@1' || typeof value.now !== 'number' || !value.realm?.realm?.realm) {
    throw new Error(
      `fixture ${path} is not a realm export (format teamchat-kit/realm@1); use "demo" or a file from GET /__mock/realms/{id}/export`,
    );
  }
  return value as RealmExport;
}
