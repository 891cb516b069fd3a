import { queryOptions } from '@tanstack/react-query';
import {
  partnerVerifyStatusSchema,
  paymentMethodInformationSchema,
  paymentPartnerKeySchema,
  paymentTestResultSchema,
  type PaymentCurrency,
  type VerifyPartnerInput,
  type VerifyPaymentMethodInput,
} from '@rpm/contracts';
import { api } from '../../api/client';

/** The spec's payment-config calls (auth prefix), for the tenant named. */
const CONFIG = '/auth/sadmin/payment-config';

export const paymentInformationQuery = (tenantId: string) =>
  queryOptions({
    queryKey: ['tenants', 'payments', tenantId],
    queryFn: ({ signal }) => api.get(`${CONFIG}/payment-method-information?tenantId=${tenantId}`, { schema: paymentMethodInformationSchema, signal }),
  });

export function issuePartnerKey(tenantId: string) {
  return api.post(`${CONFIG}/partner-key`, { tenantId }, { schema: paymentPartnerKeySchema });
}

export function verifyPartner(input: VerifyPartnerInput) {
  return api.post(`${CONFIG}/verify-partner-auth`, input, { schema: partnerVerifyStatusSchema });
}

export function verifyPaymentMethod(input: VerifyPaymentMethodInput) {
  return api.post(`${CONFIG}/verify-payment-method`, input, { schema: paymentMethodInformationSchema });
}

export function saveTaxRate(tenantId: string, rate: number) {
  return api.put(`${CONFIG}/tax`, { tenantId, rate }, { schema: paymentMethodInformationSchema });
}

export function startTestPayment(tenantId: string, amountMinor: number, currency: PaymentCurrency) {
  return api.post(`${CONFIG}/test-payment`, { tenantId, amountMinor, currency }, { schema: paymentTestResultSchema });
}
