import { describe, expect, it } from 'vitest';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { CHANNEL, patchMessage, post } from './support.js';

/** PATCH /realm with the editing settings (companion tier, area edit-delete; reference update-realm). */
const env = useTestRealm();
const updateRealm = (role: string, form: Record<string, string>) =>
  call(env.server, 'PATCH', '/api/v1/realm', { as: env.who[role]!, form });
const editing = () => tables(env.server, env.realm).realm.realm.editing ?? {};

describe('update-realm: editing settings', () => {
  it('lets administrators change them, answers and announces what changed, and the policies follow', async () => {
    const events = await observeEvents(env, ['member', 'guest', 'owner'], { event_types: JSON.stringify(['realm']) }, async () => {
      const res = await updateRealm('administrator', {
        allow_message_editing: 'false',
        message_content_delete_limit_seconds: '60',
        can_delete_own_message_group: JSON.stringify({ new: 3 }),
      });
      expect(res.body).toEqual(
        success({ allow_message_editing: false, message_content_delete_limit_seconds: 60, can_delete_own_message_group: 3 }),
      );
    });
    for (const role of ['member', 'guest', 'owner'])
      expect(events[role]).toEqual([
        { type: 'realm', op: 'update', property: 'allow_message_editing', value: false },
        { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 60 },
        { type: 'realm', op: 'update_dict', property: 'default', data: { can_delete_own_message_group: 3 } },
      ]);
    const id = await post(env.server, env.who.member!, CHANNEL.public, 'realm policy', 'x');
    expect((await patchMessage(env.server, env.who.member!, id, { content: 'y' })).body).toEqual(
      error('Your organization has turned off message editing'),
    );
    expect((await updateRealm('owner', { message_content_edit_limit_seconds: JSON.stringify('unlimited') })).body).toEqual(
      success({ message_content_edit_limit_seconds: null }),
    );
    expect(editing()).toMatchObject({ message_content_edit_limit_seconds: null, allow_message_editing: false });
  });

  it('refuses non-administrators and bad values, changing nothing', async () => {
    for (const role of ['moderator', 'member', 'guest']) {
      const res = await updateRealm(role, { allow_message_editing: 'false' });
      expect([res.status, res.body]).toEqual([400, error('Must be an organization administrator')]);
    }
    expect((await updateRealm('administrator', { message_content_edit_limit_seconds: '0' })).body).toEqual(
      error('Invalid message_content_edit_limit_seconds'),
    );
    expect((await updateRealm('administrator', { message_content_edit_limit_seconds: JSON.stringify('forever') })).body).toEqual(
      error('Invalid message_content_edit_limit_seconds'),
    );
    expect((await updateRealm('administrator', { can_resolve_topics_group: JSON.stringify({ new: 999 }) })).body).toEqual(
      error('Invalid user group'),
    );
    expect((await updateRealm('administrator', { can_resolve_topics_group: JSON.stringify({ new: 4, old: 3 }) })).body).toEqual(
      error("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    );
    expect((await updateRealm('administrator', { message_edit_history_visibility_policy: 'sometimes' })).status).toBe(400);
    // The whole request is refused when a later value is bad: nothing of it is stored.
    expect(
      (await updateRealm('administrator', { allow_message_editing: 'false', move_messages_within_stream_limit_seconds: '-5' })).status,
    ).toBe(400);
    expect(editing()).toEqual({});
  });

  it('answers nothing and announces nothing when the values are the current ones', async () => {
    const events = await observeEvents(env, ['member'], { event_types: JSON.stringify(['realm']) }, async () => {
      expect(
        (await updateRealm('administrator', { allow_message_editing: 'true', can_resolve_topics_group: JSON.stringify({ new: 7 }) })).body,
      ).toEqual(success());
    });
    expect(events.member).toEqual([]);
  });
});
