import type { ProductCache } from '../config/cache.js';
import { deriveApiKey } from '../fixtures/credentials.js';
import { demoRealm } from '../fixtures/demo-cache.js';
import { shiftRealmTimes } from '../fixtures/shift-times.js';
import { isDemoSize, realmSize, type RealmSize } from '../fixtures/size.js';
import { badRequest } from '../domain/errors.js';
import type { RealmState } from '../store/state.js';
import { readFixtureText, type FixtureSource } from './fixture-file.js';

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

/** What POST /__mock/realms and `Control.createRealm` take; the size fields make the demo realm bigger (fixtures/size.ts). */
export interface CreateRealmOptions extends Partial<RealmSize> {
  realm_id?: string;
  fixture?: string;
  seed?: number;
  feature_level?: number;
  epoch?: number;
  replace?: boolean;
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
  /** Bigger than the demo realm (fixtures/size.ts, already checked); only the demo fixture is generated. */
  size?: RealmSize;
  /** Where an export file may be read from (fixture-file.ts). */
  files: FixtureSource;
  /** Where the demo realm's template is looked for and cached. */
  cache: ProductCache;
}

/**
 * The demo realm is generated around its start. An export keeps its recorded time unless an epoch is
 * asked for; then every stored time moves with it, so what was an hour ago is still an hour ago.
 */
export async function instantiateFixture(fixture: string, opts: InstantiateOptions): Promise<Instantiated> {
  if (fixture === 'demo') {
    const start = opts.epoch ?? opts.now;
    const { realmId, seed, featureLevel, size } = opts;
    return { tables: await demoRealm({ realmId, seed, featureLevel, epoch: start, size }, opts.cache), start };
  }
  if (opts.size) throw new Error('messages, users and channels size the generated demo realm; a realm export file has its own size');
  const exported = await readExport(fixture, opts.files);
  const tables = structuredClone(exported.realm);
  const realm = tables.realm.realm;
  tables.realm.realm = { ...realm, id: opts.realmId, fixture, seed: opts.seed, feature_level: opts.featureLevel };
  for (const user of Object.values(tables.users)) user.api_key = deriveApiKey(opts.seed, opts.realmId, user.user_id);
  if (opts.epoch === undefined) return { tables, start: exported.now };
  shiftRealmTimes(tables, opts.epoch - exported.now);
  return { tables, start: opts.epoch };
}

async function readExport(fixture: string, files: FixtureSource): Promise<RealmExport> {
  const text = await readFixtureText(fixture, files);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the file's first bytes.
    parsed = undefined;
  }
  const value = parsed as Partial<RealmExport> | undefined;
  if (value?.format !== 'teamchat-kit/realm@1' || typeof value.now !== 'number' || !value.realm?.realm?.realm) {
    throw new Error(
      `fixture ${JSON.stringify(fixture)} is not a realm export (format teamchat-kit/realm@1); use "demo" or a file from GET /__mock/realms/{id}/export`,
    );
  }
  return value as RealmExport;
}

/** The asked-for size, or undefined for the demo realm's own; a bad field is a 400 naming its range. */
export function checkSize(given: Partial<RealmSize>): RealmSize | undefined {
  let size: RealmSize;
  try {
    size = realmSize(given);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  return isDemoSize(size) ? undefined : size;
}
