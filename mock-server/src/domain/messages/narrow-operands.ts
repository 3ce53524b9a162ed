import type { MessageRow } from '../../store/state.js';
/** The fixed operands of the `is:` and `has:` narrow operators (narrow-compile.ts), as predicates. */

/** The caller's flags on a message, undefined when they never received it. */
export type Flags = readonly string[] | undefined;

const MENTION_FLAGS = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned'];

/**
 * `is:` operands. `followed` depends on the viewer's topic policies, not on the message and flags alone:
 * narrow-compile.ts replaces this placeholder with a test of compat-lookups/user-topics.ts.
 */
export const IS = {
  dm: (m: MessageRow) => m.type === 'private',
  private: (m: MessageRow) => m.type === 'private',
  starred: (_m: MessageRow, f: Flags) => f?.includes('starred') === true,
  unread: (_m: MessageRow, f: Flags) => f !== undefined && !f.includes('read'),
  mentioned: (_m: MessageRow, f: Flags) => f?.some((x) => MENTION_FLAGS.includes(x)) === true,
  alerted: (_m: MessageRow, f: Flags) => f?.includes('has_alert_word') === true,
  resolved: (m: MessageRow) => m.type === 'stream' && m.subject.startsWith('✔ '),
  followed: () => false,
};

/**
 * `has:` operands, decided from the Markdown source as the reference server computes its has_link /
 * has_attachment / has_image columns when a message is saved: a URL or an upload path is a link, an
 * upload path an attachment, an uploaded image file an image.
 */
const UPLOAD = /[/-]user[-_]uploads[/.-]/;
export const HAS = {
  link: (m: MessageRow) => /https?:\/\//.test(m.content) || m.content.includes('/user_uploads'),
  attachment: (m: MessageRow) => UPLOAD.test(m.content),
  image: (m: MessageRow) => /[/-]user[-_]uploads[/.-]\S+\.(bmp|gif|jpe?g|png|tiff?|webp)/i.test(m.content),
  reaction: (m: MessageRow) => m.reactions.length > 0,
};
