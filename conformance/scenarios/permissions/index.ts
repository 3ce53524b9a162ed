import type { Scenario } from '../../src/dsl.js';
import authentication from './authentication.js';
import channelSettings from './channel-settings.js';
import createUser from './create-user.js';
import deactivateUser from './deactivate-user.js';
import linkifiers from './linkifiers.js';
import noLeaks from './no-leaks.js';
import ownerRole from './owner-role.js';
import unsubscribeOthers from './unsubscribe-others.js';
import updateChannel from './update-channel.js';
import updateUser from './update-user.js';
import userStatus from './user-status.js';

/**
 * Who may do what (spec §4.4, 4.7, 4.8, 4.10, 4.16, 4.17, 4.18 and §5), across the roles of the world
 * file, and the negative side: nothing private reaches a user without access.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const PERMISSIONS: Scenario<any, any>[] = [
  ...authentication,
  ...userStatus,
  ...updateUser,
  ...ownerRole,
  ...unsubscribeOthers,
  ...createUser,
  ...updateChannel,
  ...channelSettings,
  ...deactivateUser,
  ...linkifiers,
  ...noLeaks,
];
