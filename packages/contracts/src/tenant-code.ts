/**
 * The login code typed on the login screen: lower-case letters, digits and hyphens (as the database
 * checks). Its own module, without any schema, so the console's login page checks it without zod;
 * tenants.ts re-exports it.
 */
export const TENANT_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{1,39}$/;
