import {
  manualEntryResultSchema,
  pageOf,
  sportSavedSchema,
  sportSessionSchema,
  weightOverviewSchema,
  type SportSessionInput,
} from '@rpm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Query keys under the session root, so logging out clears them. */
export const SPORT_KEY = [SESSION_QUERY_ROOT, 'sport'] as const;
export const WEIGHT_KEY = [SESSION_QUERY_ROOT, 'weight'] as const;

const sportPageSchema = pageOf(sportSessionSchema);

export const sportHistoryQuery = () =>
  queryOptions({ queryKey: [...SPORT_KEY, 'list'], queryFn: () => api.get('/health/me/sport?page=0&size=20', sportPageSchema) });

export const sportSessionQuery = (id: string) =>
  queryOptions({ queryKey: [...SPORT_KEY, 'one', id], queryFn: () => api.get(`/health/me/sport/${encodeURIComponent(id)}`, sportSessionSchema) });

export const weightQuery = () =>
  queryOptions({ queryKey: WEIGHT_KEY, queryFn: () => api.get('/health/me/weight', weightOverviewSchema) });

/** Saves a finished session; safe to repeat (the server keeps one per clientId). */
export function saveSession(session: SportSessionInput) {
  return api.post('/health/me/sport', session, sportSavedSchema);
}

export function setWeightGoal(goalKg: number) {
  return api.post('/health/me/weight/goal', { goalKg }, weightOverviewSchema);
}

/** A weight record: a WEIGHT reading through the manual entry call (spec §5 range checked there too). */
export function enterWeight(valueKg: number, measuredAt: Date) {
  return api.post('/health/manual', { measure: 'WEIGHT', value: valueKg, measuredAt: measuredAt.toISOString() }, manualEntryResultSchema);
}
