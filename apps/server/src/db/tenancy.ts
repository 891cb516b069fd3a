/**
 * Tables of the control plane: they hold no tenant's private data rows and are reached through
 * the system store only. Every other table is data plane and must carry tenant_id with row level
 * security ENABLE + FORCE and a tenant policy (checked by tenancy.test.ts).
 */
export const CONTROL_PLANE_TABLES = ['tenants', 'tenant_settings', 'sessions', 'login_throttle', 'tenant_connections', 'tenant_email_templates', 'tenant_requests', 'platform_staff_tenants', 'send_quota_counters', 'schema_migrations'] as const;
