import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, success, useTestRealm } from '../helpers/harness.js';
import { fetchFile, upload } from './support.js';

/**
 * The live area by role (reference: no role restricts typing, presence or uploads; bots may type and
 * upload but have no presence). Each role acts on its own data, so one matrix covers them all.
 */
const env = useTestRealm();
const HUMANS = ['owner', 'administrator', 'moderator', 'member', 'guest'] as const;

describe('every role', () => {
  it.each([...HUMANS, 'bot'] as const)('%s: types to a direct conversation', async (role) => {
    const res = await call(env.server, 'POST', '/api/v1/typing', {
      as: env.who[role]!,
      form: { op: 'start', to: JSON.stringify([env.who.member_2!.user_id]) },
    });
    expect(res.body).toEqual(success());
  });

  it.each(HUMANS)('%s: reports presence and reads the realm’s', async (role) => {
    expect(
      (await call(env.server, 'POST', '/api/v1/users/me/presence', { as: env.who[role]!, form: { status: 'active', ping_only: 'true' } }))
        .body,
    ).toEqual(success());
    expect((await call(env.server, 'GET', '/api/v1/realm/presence', { as: env.who[role]! })).body.result).toBe('success');
  });

  it('bot: may not report presence', async () => {
    const res = await call(env.server, 'POST', '/api/v1/users/me/presence', { as: env.who.bot!, form: { status: 'active' } });
    expect(res.body).toEqual(error('This endpoint does not accept bot requests.'));
  });

  it.each([...HUMANS, 'bot'] as const)('%s: uploads, reads its file, and no other role may before it is shared', async (role) => {
    const up = await upload(env.server, env.who[role]!, [{ name: `${role}.txt`, content: role }]);
    const url = up.body.url as string;
    expect((await fetchFile(env.server, url, env.who[role]!)).bytes.toString()).toBe(role);
    // Not even an owner or administrator reads another user's unshared file.
    for (const other of ['owner', 'administrator'] as const)
      if (other !== role) expect((await fetchFile(env.server, url, env.who[other]!)).status).toBe(403);
  });
});
