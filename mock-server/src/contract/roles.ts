/**
 * Organization roles as their wire numbers (spec §2.8). Code names them: a bare 100 or 600 says
 * nothing to a reader and hides every place that depends on a role (an ESLint rule refuses them).
 * Lower is more privileged, so `role <= ROLE.administrator` reads "an administrator or above".
 */
export const ROLE = {
  owner: 100,
  administrator: 200,
  moderator: 300,
  member: 400,
  guest: 600,
} as const;

export type RoleName = keyof typeof ROLE;
export type RoleCode = (typeof ROLE)[RoleName];
