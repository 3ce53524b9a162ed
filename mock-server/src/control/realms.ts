import { readFile } from 'node:fs/promises';
import { deriveApiKey } from '../fixtures/context.js';
import { DEMO_REALM_EPOCH, generateDemoRealm } from '../fixtures/demo-realm.js';
import type { RealmState } from '../store/state.js';

/**
 * Realms from fixtures. A fixture is the generated demo realm (`demo`, deterministic per seed) or an
 * exported realm file (`GET /__mock/realms/{id}/export`). Every instantiated realm gets API keys of
 * its own, so the key alone still selects the realm when many copies of one fixture run side by side.
 */
export const REALM_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface RealmExport {
  format: 'teamchat-kit/realm@1';
  /** The realm's time when exported: a realm created from the file starts there. */
  now: number;
  realm: RealmState;
}

export interface Instantiated {
  tables: RealmState;
  /** The realm's time at creation (its fixture's "now"). */
  fixtureNow: number;
}

export async function instantiateFixture(fixture: string, opts: { realmId: string; seed: number; featureLevel: number }): Promise<Instantiated> {
  if (fixture === 'demo') {
    return { tables: generateDemoRealm(opts), fixtureNow: DEMO_REALM_EPOCH };
  }
  const exported = await readExport(fixture);
  const tables = structuredClone(exported.realm);
  const realm = tables.realm.realm;
  tables.realm.realm = { ...realm, id: opts.realmId, fixture, seed: opts.seed, feature_level: opts.featureLevel };
  for (const user of Object.values(tables.users)) user.api_key = deriveApiKey(opts.seed, opts.realmId, user.user_id);
  return { tables, fixtureNow: exported.now };
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
    throw new Error(`fixture ${path} is not a realm export (format teamchat-kit/realm@1); use "demo" or a file from GET /__mock/realms/{id}/export`);
  }
  return value as RealmExport;
}
