import { describe, expect, it } from 'vitest';
import { send, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { snapshotOf } from './support.js';

/** register's starred_messages (type starred_messages) after flag changes: read from the receipts index. */
const env = useTestRealm();

describe('starred_messages', () => {
  it('follows starring and unstarring through POST /messages/flags (the receipts index stays right)', async () => {
    const member = env.who.member!;
    const sent = await send(env.server, member, { type: 'private', to: JSON.stringify([env.who.member_2!.user_id]), content: 'star me' });
    const id = sent.body.id as number;
    const flag = (op: string) =>
      call(env.server, 'POST', '/api/v1/messages/flags', { as: member, form: { messages: JSON.stringify([id]), op, flag: 'starred' } });
    expect((await flag('add')).status).toBe(200);
    expect((await snapshotOf(env.server, member, ['starred_messages'])).starred_messages).toContain(id);
    expect((await snapshotOf(env.server, env.who.member_2!, ['starred_messages'])).starred_messages).not.toContain(id);
    expect((await flag('remove')).status).toBe(200);
    expect((await snapshotOf(env.server, member, ['starred_messages'])).starred_messages).not.toContain(id);
  });
});
