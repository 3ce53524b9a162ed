import { features } from '../../src/config/features.js';
import { doRemoveBotStorage, doUpdateBotStorage } from '../../src/domain/compat-lookups/bot-storage.js';
import { setUserTopicPolicy } from '../../src/domain/compat-lookups/user-topics.js';
import { doUpdatePresence } from '../../src/domain/live/presence.js';
import { doRemoveAttachment, doUploadFile } from '../../src/domain/live/uploads.js';
import type { RealmState, TableName } from '../../src/store/state.js';
import type { Tx } from '../../src/store/store.js';

/** The per-user tables of the index's `owned` facet (test/store/indexes.test.ts), written and recomputed here. */
export const OWNED = [
  'bot_storage',
  'user_topics',
  'attachments',
  'drafts',
  'saved_snippets',
  'navigation_views',
  'reminders',
  'scheduled_messages',
] as const;
export const ownerField = (table: (typeof OWNED)[number]) =>
  table === 'attachments' ? 'owner_id' : table === 'scheduled_messages' ? 'sender_id' : 'user_id';

/**
 * One random write to the companion tier's per-user tables inside `tx`: through the domain (bot storage,
 * topic policies, uploads, presence) or raw rows (a row handed to another owner, a row or presence deleted).
 */
export function randomOwnedWrite(tx: Tx, rnd: () => number, now: number, topics: readonly string[]): void {
  const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
  const tables = tx.tables;
  const active = Object.values(tables.users).filter((u) => u.is_active && !u.is_system_bot);
  const user = pick(active);
  const actor = { realm: tables.realm.realm, user, features: features(tables.realm.realm.feature_level), now, userAgent: 'test' };
  const r = rnd();
  if (r < 0.2) doUpdateBotStorage(tx, actor, { storage: { [pick(['a', 'b', 'c'])]: 'v'.repeat(1 + Math.floor(rnd() * 9)) } });
  else if (r < 0.28) doRemoveBotStorage(tx, actor, rnd() < 0.5 ? {} : { keys: [pick(['a', 'b', 'c'])] });
  else if (r < 0.45) {
    const channel = pick(Object.values(tables.channels));
    const policy = pick([0, 1, 2, 3] as const);
    setUserTopicPolicy(tx, user, now, { streamId: channel.stream_id, topic: pick([...topics]), policy });
  } else if (r < 0.58) {
    const file = { filename: 'f.txt', mimeType: 'text/plain', data: Buffer.alloc(1 + Math.floor(rnd() * 100)), truncated: false };
    doUploadFile(tx, actor, { files: [file], limits: { maxFileMib: 1, quotaMib: 1000 } });
  } else if (r < 0.65) {
    const row = pick(Object.values(tables.attachments));
    const owner = row && tables.users[String(row.owner_id)];
    if (owner) doRemoveAttachment(tx, { ...actor, user: owner }, { attachment_id: row.id });
  } else if (r < 0.75) {
    doUpdatePresence(tx, actor, { status: pick(['active', 'idle']), ping_only: true, new_user_input: false, slim_presence: true });
  } else if (r < 0.78) {
    const row = pick(Object.values(tables.presence));
    if (row) tx.delete('presence', row.user_id);
  } else {
    // A raw row of a per-user table given to another user, copied to a new key for another user, or deleted.
    const table = pick([...OWNED]);
    const rows = tables[table] as unknown as Record<string, Record<string, unknown>>;
    const key = pick(Object.keys(rows));
    if (key === undefined) return;
    const other = { ...rows[key]!, [ownerField(table)]: pick(active).user_id } as never;
    const d = rnd();
    if (d < 0.3) tx.delete(table as TableName, key);
    else if (d < 0.7) tx.put(table as TableName, key, other);
    else tx.put(table as TableName, `${key}-copy${Math.floor(rnd() * 1000)}`, other);
  }
}

/** The `owned` facet computed the slow way: one scan of each table. */
export function recomputeOwned(tables: RealmState) {
  const keys: Record<string, Record<string, string[]>> = {};
  for (const table of OWNED) {
    const byUser = new Map<number, string[]>();
    for (const [key, row] of Object.entries(tables[table])) {
      const owner = (row as unknown as Record<string, number>)[ownerField(table)]!;
      byUser.set(owner, [...(byUser.get(owner) ?? []), key]);
    }
    keys[table] = Object.fromEntries([...byUser].sort(([a], [b]) => a - b).map(([u, list]) => [String(u), list.sort()]));
  }
  return {
    keys,
    uploadBytes: Object.values(tables.attachments).reduce((sum, a) => sum + a.size, 0),
    presenceIds: Object.values(tables.presence)
      .map((p) => p.last_update_id ?? 0)
      .sort((a, b) => a - b),
  };
}
