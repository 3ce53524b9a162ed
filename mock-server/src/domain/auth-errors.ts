/**
 * Authentication refusals for a readable Authorization header (spec §5 states none of them; reference
 * rest-error-handling and the reference's error classes give the codes and texts). All HTTP 401.
 * Re-exported by `errors.ts`, where code imports them from.
 */
import { credentialsRefused } from './api-error.js';

/** The key is not 32 letters and digits. */
export const malformedApiKey = () => credentialsRefused('INVALID_API_KEY', 'Malformed API key');

/** No user has the key, or the user name of the header is not the key owner's email. */
export const invalidApiKey = () => credentialsRefused('INVALID_API_KEY', 'Invalid API key');

/** fetch-api-key: no account of the realm matches the user name and the password (reference AuthenticationFailedError). */
export const authenticationFailed = () => credentialsRefused('AUTHENTICATION_FAILED', 'Your username or password is incorrect');

/** The key's account is deactivated (checked after the organization). */
export const userDeactivated = () => credentialsRefused('USER_DEACTIVATED', 'Account is deactivated');

/** The key's organization is deactivated: checked before the account. */
export const realmDeactivated = () => credentialsRefused('REALM_DEACTIVATED', 'This organization has been deactivated');
