import { describe, expect, it } from 'vitest';
import { openQueue, useTestRealm } from '../helpers/harness.js';
import { setEditing } from './support.js';

/** The editing policies in the register answer (type realm), reference names and defaults. */
const env = useTestRealm();

describe('editing settings in register', () => {
  it('answers the reference defaults for a realm that never set them', async () => {
    const { snapshot } = await openQueue(env.server, env.who.member!, { fetch_event_types: JSON.stringify(['realm']) });
    expect(snapshot).toMatchObject({
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_message_content_delete_limit_seconds: null,
      realm_move_messages_within_stream_limit_seconds: 604_800,
      realm_move_messages_between_streams_limit_seconds: 604_800,
      realm_edit_topic_policy: 5,
      realm_can_move_messages_between_topics_group: 7,
      realm_can_move_messages_between_channels_group: 6,
      realm_can_delete_any_message_group: 3,
      realm_can_delete_own_message_group: 7,
      realm_can_resolve_topics_group: 7,
      realm_message_edit_history_visibility_policy: 'all',
      realm_allow_edit_history: true,
    });
  });

  it('follows the stored settings; the legacy keys are derived from their replacements', async () => {
    await setEditing(env.server, env.realm, {
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
      can_move_messages_between_topics_group: 4,
      message_edit_history_visibility_policy: 'none',
    });
    const { snapshot } = await openQueue(env.server, env.who.guest!, { fetch_event_types: JSON.stringify(['realm']) });
    expect(snapshot).toMatchObject({
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: null,
      realm_can_move_messages_between_topics_group: 4,
      realm_edit_topic_policy: 4,
      realm_allow_edit_history: false,
    });
    await setEditing(env.server, env.realm, { can_move_messages_between_topics_group: { direct_members: [11], direct_subgroups: [] } });
    const again = await openQueue(env.server, env.who.guest!, { fetch_event_types: JSON.stringify(['realm']) });
    expect(again.snapshot.realm_edit_topic_policy).toBe(1);
    // Not asked for: not there.
    const other = await openQueue(env.server, env.who.guest!, { fetch_event_types: JSON.stringify(['message']) });
    expect(other.snapshot).not.toHaveProperty('realm_allow_message_editing');
  });
});
