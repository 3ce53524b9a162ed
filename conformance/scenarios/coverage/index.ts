import type { Scenario } from '../../src/dsl.js';
import groupSettings from './group-settings.js';
import listings from './listings.js';
import profileData from './profile-data.js';
import versioning from './versioning.js';

/**
 * Rules no other area checked: group-setting updates (§1, §4.16), include_can_access_content (§4.15),
 * profile_data (§4.7), channel folders' archived state (§3), the /api/v1 prefix and deprecations (§9).
 */
export const COVERAGE: Scenario<any, any>[] = [...groupSettings, ...listings, profileData, ...versioning]; // eslint-disable-line @typescript-eslint/no-explicit-any
