import type { RouteObject } from 'react-router';
import { rememberedTenant } from '../../api/session-store';
import { ForgotPasswordPage } from './forgot-password-page';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';
import { normaliseTenantCode } from './rules';
import { applyTenantManifest } from './tenant-manifest';

/** The signed-out screens (spec §2 patient app: login, register, OTP, forgot password, tenant code). */
export const authRoutes: RouteObject[] = [
  { path: 'login', element: <LoginPage /> },
  { path: 'register', element: <RegisterPage /> },
  { path: 'forgot-password', element: <ForgotPasswordPage /> },
];

// At start-up (signed in or not) the tenant of the last login brands the installable app.
const lastTenant = normaliseTenantCode(rememberedTenant());
if (lastTenant !== undefined) void applyTenantManifest(lastTenant);
