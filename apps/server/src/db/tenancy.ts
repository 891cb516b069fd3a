/**
 * Tables of the control plane: they hold no tenant's private data rows and are reached through
 * the system store only. Every other table is data plane and must carry tenant_id with row level
 * security ENABLE + FORCE and a tenant policy (checked by tenancy.test.ts). `call_signals` is the
 * video calls' relay between server processes (migration 0046): SDP and ICE messages addressed to
 * one account, read by the server only, kept 10 minutes, no health data; it lives in the platform
 * database with the LISTEN channel that names its rows, whatever database the tenant's data is in.
 * `tenant_message_gateways` (0052) is a tenant's SMS and voice gateway settings with sealed
 * credentials, read by the server only, like `tenant_connections`; `tenant_payment_configs` (0056)
 * likewise holds a tenant's payment partner status, provider and sealed provider keys.
 */
export const CONTROL_PLANE_TABLES = ['tenants', 'tenant_settings', 'sessions', 'login_throttle', 'tenant_connections', 'tenant_email_templates', 'tenant_requests', 'platform_staff_tenants', 'send_quota_counters', 'schema_migrations', 'call_signals', 'tenant_message_gateways', 'tenant_payment_configs'] as const;
