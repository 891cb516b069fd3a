import type { LevelOptions, StaffLevel } from '@rpm/contracts';
import { activeLevel } from './reach';

/** The parts of the header label, so the screen can translate and style each. */
export interface LevelLabelParts {
  level: StaffLevel | undefined;
  /** The tenant's name, only when the caller may act in more than one. */
  tenant: string | null;
  /** The center or scope the session is narrowed to (or its level's own place); null: everything. */
  place: string | null;
}

/** What the header shows for the current choice: role, tenant (platform staff), place. */
export function levelLabelParts(options: LevelOptions): LevelLabelParts {
  const level = activeLevel(options);
  const tenant =
    options.tenants.length > 1
      ? (options.tenants.find((item) => item.id === options.current.tenantId)?.name ?? null)
      : null;
  const { scopeId, centerId } = options.current;
  const center = centerId === null ? undefined : options.centers.find((item) => item.id === centerId);
  const scope = scopeId === null ? undefined : options.scopes.find((item) => item.id === scopeId);
  const place = center?.name ?? level?.center?.name ?? scope?.name ?? level?.scope?.name ?? null;
  return { level, tenant, place };
}

/** A level's own place, for the level select: "Saigon Heart Center", "Ho Chi Minh City" or null. */
export function levelPlace(level: StaffLevel): string | null {
  return level.center?.name ?? level.scope?.name ?? null;
}

/** The select value of a level; the main level has no id. */
export const MAIN_LEVEL = 'main';
export const levelKey = (level: Pick<StaffLevel, 'id'>): string => level.id ?? MAIN_LEVEL;
