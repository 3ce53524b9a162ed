import type { MockServer } from '../../src/app.js';
import { CAPABILITIES } from '../../src/contract/client-view.js';
import { call, type Reply } from '../helpers/test-server.js';
import { knownChannelIds, ownerSubscribedIds, tablesOf, type Account } from './model.js';

/**
 * The read side of the sweep: every implemented operation that answers with channel data, called the way
 * that shows the most (all flags, all capabilities, subscribers included, both Markdown settings).
 */

// Spec §4.21 client capabilities, all declared (the most a modern client can be shown): the server's own
// list, so that a capability added there is swept here too.
const ALL = JSON.stringify(Object.fromEntries(CAPABILITIES.map((c) => [c, true])));
const NONE = JSON.stringify(Object.fromEntries(CAPABILITIES.map((c) => [c, false])));

/** GET /streams with every flag of §4.15 true (include_all_active apart: administrators only, C16). */
const EVERY_FLAG = {
  include_public: 'true',
  include_web_public: 'true',
  include_subscribed: 'true',
  exclude_archived: 'false',
  include_all: 'true',
  include_default: 'true',
  include_can_access_content: 'true',
};

export interface Observation {
  label: string;
  reply: Reply;
  /** Stream IDs this answer may carry beyond the viewer's metadata access (a spec grant). */
  grant: ReadonlySet<number>;
}

/** Two queues per viewer: the richest modern client and a legacy one (capability effects differ). */
export function registerForms(account: Pick<Account, 'role'>): Record<string, string>[] {
  const modern: Record<string, string> = {
    client_capabilities: ALL,
    include_subscribers: 'true',
    apply_markdown: 'true',
    client_gravatar: 'true',
  };
  // §4.21 reference: a guest with all_public_streams is refused; everyone else watches every public channel.
  if (account.role !== 600) modern.all_public_streams = 'true';
  const legacy = { client_capabilities: NONE, include_subscribers: 'partial', apply_markdown: 'false', client_gravatar: 'false' };
  return [modern, legacy];
}

export async function registerQueues(server: MockServer, account: Account): Promise<{ queueIds: string[]; observations: Observation[] }> {
  const queueIds: string[] = [];
  const observations: Observation[] = [];
  for (const [i, form] of registerForms(account).entries()) {
    const reply = await call(server, 'POST', '/api/v1/register', { as: account, form });
    queueIds.push(reply.body.queue_id as string);
    observations.push({ label: `POST /register (${i === 0 ? 'modern' : 'legacy'} client)`, reply, grant: new Set() });
  }
  return { queueIds, observations };
}

export async function pollQueues(server: MockServer, account: Account, queueIds: string[]): Promise<Observation[]> {
  const out: Observation[] = [];
  for (const queue_id of queueIds) {
    const reply = await call(server, 'GET', '/api/v1/events', {
      as: account,
      query: { queue_id, last_event_id: '-1', dont_block: 'true' },
    });
    out.push({ label: `GET /events (${out.length === 0 ? 'modern' : 'legacy'} queue)`, reply, grant: new Set() });
  }
  return out;
}

/** Every successful read of channel data for one viewer (errors are compared separately). */
export async function readSweep(server: MockServer, realmId: string, account: Account): Promise<Observation[]> {
  const none = new Set<number>();
  const get = async (label: string, path: string, query: Record<string, string>, grant: ReadonlySet<number> = none) => ({
    label,
    reply: await call(server, 'GET', path, { as: account, query }),
    grant,
  });
  const owned = ownerSubscribedIds(tablesOf(server, realmId), account.user_id);
  const observations = [
    ...(await registerQueues(server, account)).observations,
    await get('GET /streams every flag', '/api/v1/streams', EVERY_FLAG),
    await get(
      'GET /streams every flag + include_owner_subscribed',
      '/api/v1/streams',
      { ...EVERY_FLAG, include_owner_subscribed: 'true' },
      owned,
    ),
    await get('GET /streams defaults', '/api/v1/streams', {}),
    await get('GET /streams include_all only', '/api/v1/streams', {
      include_public: 'false',
      include_subscribed: 'false',
      include_all: 'true',
    }),
    await get('GET /streams include_can_access_content only', '/api/v1/streams', {
      include_public: 'false',
      include_subscribed: 'false',
      include_can_access_content: 'true',
    }),
    await get('GET /users/me/subscriptions include_subscribers', '/api/v1/users/me/subscriptions', { include_subscribers: 'true' }),
  ];
  // The channels the viewer does know: their topics are readable and must not mention the others.
  for (const id of knownChannelIds(tablesOf(server, realmId), account.user_id)) {
    const reply = await call(server, 'GET', `/api/v1/users/me/${id}/topics`, { as: account, query: { allow_empty_topic_name: 'true' } });
    if (reply.status === 200) observations.push({ label: `GET /users/me/${id}/topics`, reply, grant: none });
  }
  return observations;
}

/** What a viewer may be shown: its known channels, plus what the observation's grant adds. */
export function allowedFor(server: MockServer, realmId: string, account: Account, observation: Observation): Set<number> {
  return new Set([...knownChannelIds(tablesOf(server, realmId), account.user_id), ...observation.grant]);
}
