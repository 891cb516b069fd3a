import { PROFILE_HEADER, type ProfileKind } from '@rpm/contracts';
import { useSyncExternalStore } from 'react';

/**
 * Whose data the app shows (contracts followers.ts, "Profiles"): the account's own record (no
 * header), one of its sub-users or a patient it follows. Every API call carries the active
 * profile in the `x-patient-profile` header, so the health, entry and alert screens work on it
 * unchanged. Kept for the browser tab (sessionStorage): a new tab starts on the own record.
 */
export interface ActiveProfile {
  patientId: string;
  kind: Exclude<ProfileKind, 'OWN'>;
  name: string;
  readOnly: boolean;
  canRaiseSos: boolean;
}

const KEY = 'rpm.patient.profile';
const listeners = new Set<() => void>();
let cached: ActiveProfile | null | undefined;

function read(): ActiveProfile | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<ActiveProfile> | null;
    if (
      typeof value?.patientId === 'string' &&
      (value.kind === 'SUB_USER' || value.kind === 'FOLLOWED') &&
      typeof value.name === 'string'
    )
      return {
        patientId: value.patientId,
        kind: value.kind,
        name: value.name,
        readOnly: value.readOnly === true,
        canRaiseSos: value.canRaiseSos === true,
      };
  } catch {
    // A damaged entry is the own record.
  }
  return null;
}

/** The active profile, or null for the account's own record. */
export function activeProfile(): ActiveProfile | null {
  cached ??= read();
  return cached;
}

/** Switches the app to a profile (null: back to the own record). Callers reset their queries. */
export function setActiveProfile(profile: ActiveProfile | null): void {
  if (profile === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(profile));
  cached = profile;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The active profile for a component, re-rendered when it changes. */
export function useActiveProfile(): ActiveProfile | null {
  return useSyncExternalStore(subscribe, activeProfile, () => null);
}

/** The header naming the active profile, for calls made outside the API client. */
export function profileHeaders(): Record<string, string> {
  const profile = activeProfile();
  return profile === null ? {} : { [PROFILE_HEADER]: profile.patientId };
}
