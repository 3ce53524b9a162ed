import { CURRENT_FEATURE_LEVEL } from './features.js';

/** service_version (spec §4.21, §9): names this implementation and the API level it emulates by default. */
export const SERVICE_VERSION = `teamchat-kit 0.1.0 (feature level ${CURRENT_FEATURE_LEVEL})`;
