import {
  BLOOD_GLUCOSE_UNITS,
  TENANT_SETTING_DEFAULTS,
  THERMAL_UNITS,
  UNIT_SYSTEMS,
  URIC_ACID_UNITS,
  type DeactivationDuration,
  type UnitSettings,
} from '@rpm/contracts';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { unitSettingsUpdateSchema } from '@rpm/contracts';
import { users } from '../../db/schema.js';
import { AppError } from '../../http/app-error.js';
import { DAY } from '../../lib/clock.js';
import { recordAudit } from '../audit/store.js';
import { verifyPassword } from '../auth/passwords.js';
import { revokeUserSessions } from '../auth/store.js';
import { readTenantSettings } from '../tenants/store.js';
import type { AccountEnvironment, Caller } from './service.js';

type UnitSettingsUpdate = z.infer<typeof unitSettingsUpdateSchema>;

const pick = <T extends string>(allowed: readonly T[], value: string | null | undefined): T | null =>
  allowed.find((candidate) => candidate === value) ?? null;

async function loadUser(environment: AccountEnvironment, caller: Caller) {
  const user = await environment.database.withTenant(caller.accountTenantId, async (tx) => {
    const rows = await tx.select().from(users).where(eq(users.id, caller.userId)).limit(1);
    return rows[0];
  });
  if (user === undefined) throw new AppError('account.notFound');
  return user;
}

/** The user's own units and the ones that apply (own choice, else the acting tenant's setting). */
export async function readUnitSettings(environment: AccountEnvironment, caller: Caller): Promise<UnitSettings> {
  const [user, tenant] = await Promise.all([loadUser(environment, caller), readTenantSettings(environment.database.system, caller.tenantId)]);
  const own = {
    unitSystem: pick(UNIT_SYSTEMS, user.unitSystem),
    thermalUnit: pick(THERMAL_UNITS, user.thermalUnit),
    bloodGlucoseUnit: pick(BLOOD_GLUCOSE_UNITS, user.bloodGlucoseUnit),
    uricAcidUnit: pick(URIC_ACID_UNITS, user.uricAcidUnit),
  };
  const setting = (key: 'UNIT_SYSTEM' | 'THERMAL_UNIT' | 'BLOOD_GLUCOSE_UNIT' | 'ACID_URIC_UNIT') => tenant.get(key) ?? TENANT_SETTING_DEFAULTS[key];
  return {
    own,
    effective: {
      unitSystem: own.unitSystem ?? pick(UNIT_SYSTEMS, setting('UNIT_SYSTEM')) ?? 'metric',
      thermalUnit: own.thermalUnit ?? pick(THERMAL_UNITS, setting('THERMAL_UNIT')) ?? 'C',
      bloodGlucoseUnit: own.bloodGlucoseUnit ?? pick(BLOOD_GLUCOSE_UNITS, setting('BLOOD_GLUCOSE_UNIT')) ?? 'mg/dL',
      uricAcidUnit: own.uricAcidUnit ?? pick(URIC_ACID_UNITS, setting('ACID_URIC_UNIT')) ?? 'umol/L',
    },
  };
}

export async function updateUnitSettings(environment: AccountEnvironment, caller: Caller, update: UnitSettingsUpdate): Promise<UnitSettings> {
  const now = environment.clock.now();
  await environment.database.withTenant(caller.accountTenantId, async (tx) => {
    await tx.update(users).set({ ...update, updatedAt: now }).where(eq(users.id, caller.userId));
    await recordAudit(tx, caller.accountTenantId, environment.audit, {
      action: 'ACCOUNT_UNITS_UPDATED',
      subjectUserId: caller.userId,
      details: { ...update },
      at: now,
    });
  });
  return readUnitSettings(environment, caller);
}

/** The end of a temporary deactivation; null for "indefinitely". */
export function deactivationEnd(duration: DeactivationDuration, now: Date): Date | null {
  switch (duration) {
    case 'THREE_DAYS':
      return new Date(now.getTime() + 3 * DAY);
    case 'TWO_WEEKS':
      return new Date(now.getTime() + 14 * DAY);
    case 'ONE_MONTH': {
      const end = new Date(now);
      end.setUTCMonth(end.getUTCMonth() + 1);
      return end;
    }
    case 'INDEFINITE':
      return null;
  }
}

/**
 * Deactivates the caller's own account for a while (spec §4: 3 days, 2 weeks, 1 month or
 * indefinitely). The account is disabled and every session ends; logging in after the period
 * reactivates it. A doctor's deactivation needs an admin's approval, so it is only requested.
 */
export async function deactivateOwnAccount(
  environment: AccountEnvironment,
  caller: Caller,
  input: { duration: DeactivationDuration; password: string },
): Promise<{ outcome: 'DEACTIVATED' | 'REQUESTED'; until: string | null }> {
  const user = await loadUser(environment, caller);
  if (!(await verifyPassword(user.passwordHash, input.password))) throw new AppError('password.wrongCurrent');
  // The root account keeps the platform reachable; it cannot switch itself off.
  if (user.role === 'ROOT') throw new AppError('auth.permissionDenied');
  const now = environment.clock.now();
  const until = deactivationEnd(input.duration, now);
  const isRequest = user.role === 'DOCTOR';
  await environment.database.withTenant(caller.accountTenantId, async (tx) => {
    await tx
      .update(users)
      .set(
        isRequest
          ? { deactivationRequestedAt: now, deactivationRequestedUntil: until, deactivationRequestedIndefinite: until === null, updatedAt: now }
          : { status: 'DISABLED', disabledUntil: until, updatedAt: now },
      )
      .where(eq(users.id, user.id));
    await recordAudit(tx, caller.accountTenantId, environment.audit, {
      action: isRequest ? 'ACCOUNT_DEACTIVATION_REQUESTED' : 'ACCOUNT_DEACTIVATED',
      subjectUserId: user.id,
      details: { duration: input.duration, until: until?.toISOString() ?? null },
      at: now,
    });
  });
  if (!isRequest) await revokeUserSessions(environment.database.system, [user.id], 'disabled', now);
  return { outcome: isRequest ? 'REQUESTED' : 'DEACTIVATED', until: until?.toISOString() ?? null };
}
