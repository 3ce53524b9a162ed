/**
 * The demo realm's answers recorded before the rewrite of the read paths (indexes, route tree,
 * lean pipeline, demo realm templates) and compared byte for byte after it: the reads whose code changed,
 * as each role sees them. `record.ts` writes `demo-answers.json` from any commit's server.
 */
export interface GoldenRequest {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  as: string;
  form?: Record<string, string>;
}

export const GOLDEN_ROLES = ['owner', 'member', 'guest', 'bot'] as const;

/** Register keys whose values are made per queue, not per realm. */
export const PER_QUEUE_KEYS = ['queue_id'];

export function goldenRequests(channelIds: number[], userIds: number[]): GoldenRequest[] {
  const out: GoldenRequest[] = [];
  for (const as of GOLDEN_ROLES) {
    const get = (path: string) => out.push({ name: `${as} GET ${path}`, method: 'GET', path, as });
    get('/api/v1/streams');
    get('/api/v1/streams?include_all=true&include_default=true');
    get('/api/v1/users');
    get('/api/v1/users?include_custom_profile_fields=true&client_gravatar=false');
    get('/api/v1/users/me');
    get('/api/v1/users/me/subscriptions?include_subscribers=true');
    get('/api/v1/users/me/subscriptions?include_subscribers=%22partial%22');
    get('/api/v1/server_settings');
    get('/api/v1/drafts');
    get('/api/v1/scheduled_messages');
    get('/api/v1/saved_snippets');
    get('/api/v1/navigation_views');
    get('/api/v1/reminders');
    for (const id of channelIds) {
      get(`/api/v1/users/me/${id}/topics`);
      get(`/api/v1/streams/${id}`);
    }
    for (const id of userIds) get(`/api/v1/users/${id}`);
    out.push({ name: `${as} POST /register (all)`, method: 'POST', path: '/api/v1/register', as, form: {} });
    out.push({
      name: `${as} POST /register (message, realm_user)`,
      method: 'POST',
      path: '/api/v1/register',
      as,
      form: { event_types: '["message","realm_user","subscription","stream"]', client_gravatar: 'false' },
    });
    out.push({
      name: `${as} POST /messages/render`,
      method: 'POST',
      path: '/api/v1/messages/render',
      as,
      form: { content: 'Hi @**all**, see #**home** and :smile: **bold**' },
    });
  }
  return out;
}
