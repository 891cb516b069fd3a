import { patientSubscriptionsSchema, type RedeemCode } from '@rpm/contracts';
import { api } from '../../api/client';

/** The scratch-card entry: the batch's package starts (or extends) for the active profile. */
export const redeemCode = (input: RedeemCode) => api.post('/health/me/codes/redeem', input, patientSubscriptionsSchema);
