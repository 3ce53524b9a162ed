/**
 * Whether an unread message counts in `unread_msgs.mentions`: a direct mention always, a wildcard mention
 * only outside muted channels (reference get_raw_unread_data). The register lists the result, not the
 * kind, so a client records the kind of each message its events told it about (message flags, an edit's
 * flags) and infers what it can of the others from where they stand: a mention in a muted channel is
 * direct, a message outside the list in an unmuted channel mentions no one. What stays ambiguous when a
 * channel's mute changes or a message moves makes the unread state unknown.
 */
export type MentionKind =
  /** `mentioned`: counts everywhere. */
  | 'direct'
  /** only wildcard flags: counts outside muted channels. */
  | 'wildcard'
  /** no mention flag. */
  | 'none'
  /** some mention, direct or wildcard (listed in an unmuted channel; message_details' `mentioned`). */
  | 'some'
  /** no mention shown in a muted channel: none, or a wildcard mention. */
  | 'hidden';

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

export function kindOfFlags(flags: readonly string[]): MentionKind {
  if (flags.includes('mentioned')) return 'direct';
  return WILDCARD_FLAGS.some((f) => flags.includes(f)) ? 'wildcard' : 'none';
}

/** What a message's place in the list says of its kind, when no event said more. */
export function inferKind(listed: boolean, muted: boolean): MentionKind {
  if (listed) return muted ? 'direct' : 'some';
  return muted ? 'hidden' : 'none';
}

/** Whether a message of this kind is listed in a channel muted or not; undefined when that cannot be known. */
export function listed(kind: MentionKind, muted: boolean): boolean | undefined {
  switch (kind) {
    case 'direct':
      return true;
    case 'none':
      return false;
    case 'wildcard':
      return !muted;
    case 'some':
      return muted ? undefined : true;
    case 'hidden':
      return muted ? false : undefined;
  }
}
