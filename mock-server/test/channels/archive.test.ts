import { describe, expect, it } from 'vitest';
import { archive, CH, channelRow, err, listKinds, OK, patch, realmRow, streamAsAdmin, useDemoServer, type Role } from './support.js';

/**
 * The archive state (spec §3: archived → unarchived through PATCH is_archived; C4) and its way in,
 * DELETE /api/v1/streams/{stream_id} (archive-stream companion; the reference server's deactivation).
 * 56 "old matrix" is archived in the demo world; its creator, member, administers it.
 */

const env = useDemoServer();

const ADMINISTER = 'You do not have permission to administer this channel.';

describe('PATCH is_archived (§3, §4.16, C4)', () => {
  it.each([true, false])('is_archived %s unarchives an archived channel', async (value) => {
    expect((await patch(env.server, env.who.owner!, CH.archived, { is_archived: value })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.archived)).toMatchObject({ is_archived: false });
    // Back in the default listing of a member (56 is public).
    expect(await listKinds(env.server, env.who.member_2!)).toContain('archived');
  });

  it('is_archived true on an active channel is refused: archiving is not accepted', async () => {
    const before = structuredClone(channelRow(env.server, CH.public));
    const res = await patch(env.server, env.who.owner!, CH.public, { is_archived: true });
    expect([res.status, res.body]).toEqual([400, err('Channels cannot be archived with this operation.')]);
    expect(channelRow(env.server, CH.public)).toEqual(before);
  });

  it('is_archived false on an active channel changes nothing', async () => {
    const before = await streamAsAdmin(env.server, CH.public);
    expect((await patch(env.server, env.who.owner!, CH.public, { is_archived: false })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.public)).toEqual(before);
  });

  it.each<[Role, string]>([
    ['member', 'ok'],
    ['administrator', 'ok'],
    ['member_2', ADMINISTER],
    ['moderator', ADMINISTER],
    ['guest', 'Invalid channel ID'],
  ])('the %s unarchiving 56: %s', async (role, outcome) => {
    const res = await patch(env.server, env.who[role]!, CH.archived, { is_archived: true });
    if (outcome === 'ok') expect(res.body).toEqual(OK);
    else expect([res.status, res.body]).toEqual([400, err(outcome)]);
    expect(channelRow(env.server, CH.archived).is_archived).toBe(outcome !== 'ok');
  });

  it('other properties of an archived channel can change while it stays archived', async () => {
    expect(
      (await patch(env.server, env.who.member!, CH.archived, { description: 'Archived notes', new_name: 'older matrix' })).body,
    ).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.archived)).toMatchObject({
      name: 'older matrix',
      description: 'Archived notes',
      is_archived: true,
    });
  });

  it('unarchiving combined with another change applies both', async () => {
    expect((await patch(env.server, env.who.owner!, CH.archived, { is_archived: true, description: 'Back again' })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.archived)).toMatchObject({ is_archived: false, description: 'Back again' });
  });
});

describe('DELETE /api/v1/streams/{stream_id} (archive-stream)', () => {
  it.each<[Role, keyof typeof CH, string]>([
    ['owner', 'public', 'ok'],
    ['administrator', 'private_shared', 'ok'],
    ['member', 'empty_topic_only', 'ok'],
    ['moderator', 'disable_empty_topic', 'ok'],
    ['member_2', 'public', ADMINISTER],
    ['guest', 'public', ADMINISTER],
    ['bot', 'public', ADMINISTER],
    ['member', 'public_2', ADMINISTER],
    ['moderator', 'private_shared', 'Invalid channel ID'],
    ['member', 'moderation', 'Invalid channel ID'],
  ])('the %s archiving %s: %s', async (role, kind, outcome) => {
    const res = await archive(env.server, env.who[role]!, CH[kind]);
    if (outcome === 'ok') expect(res.body).toEqual(OK);
    else expect([res.status, res.body]).toEqual([400, err(outcome)]);
    expect(channelRow(env.server, CH[kind]).is_archived).toBe(outcome === 'ok');
  });

  it('answers Invalid channel ID for an unknown channel', async () => {
    const res = await archive(env.server, env.who.owner!, 999);
    expect([res.status, res.body]).toEqual([400, err('Invalid channel ID')]);
  });

  it('refuses a channel that is already archived', async () => {
    const res = await archive(env.server, env.who.owner!, CH.archived);
    expect([res.status, res.body]).toEqual([400, err('Channel is already deactivated')]);
  });

  it('archives: the channel leaves listings and default channels, keeps its subscribers, and comes back with PATCH', async () => {
    const before = await streamAsAdmin(env.server, CH.public_2);
    expect((await archive(env.server, env.who.owner!, CH.public_2)).body).toEqual(OK);

    expect(realmRow(env.server).default_stream_ids).toEqual([CH.public]);
    expect(await listKinds(env.server, env.who.member!)).not.toContain('public_2');
    expect(
      await listKinds(env.server, env.who.member!, { include_public: false, include_subscribed: false, include_default: true }),
    ).toEqual(['public']);
    expect(await listKinds(env.server, env.who.member!, { exclude_archived: false })).toContain('public_2');
    expect(await streamAsAdmin(env.server, CH.public_2)).toEqual({ ...before, is_archived: true });

    // Archiving twice is refused; unarchiving brings it back, but not into the default channels.
    expect((await archive(env.server, env.who.owner!, CH.public_2)).body).toEqual(err('Channel is already deactivated'));
    expect((await patch(env.server, env.who.owner!, CH.public_2, { is_archived: true })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.public_2)).toEqual(before);
    expect(realmRow(env.server).default_stream_ids).toEqual([CH.public]);
    expect(await listKinds(env.server, env.who.member!)).toContain('public_2');
  });

  it('a channel archived by its channel administrator can be unarchived by them with is_archived false (C4)', async () => {
    expect((await archive(env.server, env.who.member!, CH.empty_topic_only)).body).toEqual(OK);
    expect((await patch(env.server, env.who.member!, CH.empty_topic_only, { is_archived: false })).body).toEqual(OK);
    expect(channelRow(env.server, CH.empty_topic_only).is_archived).toBe(false);
  });
});
