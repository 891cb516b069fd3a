import { patientSubscriptionsSchema, servicePackageSchema } from '@rpm/contracts';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Every package query, under the session root so that logging out clears them. */
export const SUBSCRIPTION_KEY = [SESSION_QUERY_ROOT, 'subscription'] as const;

/** The profile's package now (features, limits) and its past subscriptions, newest first. */
export const mySubscriptionQuery = () =>
  queryOptions({
    queryKey: [...SUBSCRIPTION_KEY, 'mine'],
    queryFn: () => api.get('/health/me/subscription', patientSubscriptionsSchema),
  });

/** The enabled packages and add-ons of the health center, packages by price first. */
export const packageOfferQuery = () =>
  queryOptions({
    queryKey: [...SUBSCRIPTION_KEY, 'offer'],
    queryFn: () => api.get('/health/me/packages', z.array(servicePackageSchema)),
  });

/** Back to the free default package at once. */
export const cancelMySubscription = () => api.post('/health/me/subscription/cancel', {}, patientSubscriptionsSchema);
