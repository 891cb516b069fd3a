import { publicTenantSchema } from '@rpm/contracts';

/** The answers of the sign-in and startup calls (auth-api.ts loads this module with the first of them). */
export {
  checkTokenResponseSchema,
  permissionListSchema,
  publicTenantSchema,
  tenantSettingsResponseSchema,
} from '@rpm/contracts';

/** The tenant the console's own address names, or null on the platform's address. */
export const nullablePublicTenantSchema = publicTenantSchema.nullable();
