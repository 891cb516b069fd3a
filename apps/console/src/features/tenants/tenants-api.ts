import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  emailTemplatePreviewSchema,
  emailTemplateSchema,
  messageGatewaySchema,
  messageGatewayTestResultSchema,
  type MessageGatewayChannel,
  type MessageGatewayUpdate,
  pageOf,
  tenantConnectionsSchema,
  tenantConnectionTestSchema,
  tenantDetailSchema,
  tenantListItemSchema,
  type EmailTemplateKey,
  type Language,
  type TenantConnectionsInput,
  type TenantCreate,
  type TenantLogoKind,
  type TenantSettingsUpdate,
  type TenantUpdate,
} from '@rpm/contracts';
import { api } from '../../api/client';
import { SESSION_QUERY_ROOT } from '../auth/auth-api';

/** Everything about tenants sits under one key, so a change can refresh all of it at once. */
export const TENANTS_QUERY_ROOT = [SESSION_QUERY_ROOT, 'tenants'] as const;

const tenantPageSchema = pageOf(tenantListItemSchema);
const base = '/manage/sadmin/tenant';
const tenantPath = (id: string) => `${base}/${encodeURIComponent(id)}`;

export type TenantSort = 'name' | 'created';
export type SortOrder = 'asc' | 'desc';

export interface TenantListFilter {
  page: number;
  size: number;
  search: string;
  sort: TenantSort;
  order: SortOrder;
}

export const tenantListQuery = (filter: TenantListFilter) =>
  queryOptions({
    queryKey: [...TENANTS_QUERY_ROOT, 'list', filter],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        page: String(filter.page),
        size: String(filter.size),
        sort: filter.sort,
        order: filter.order,
      });
      if (filter.search.trim() !== '') query.set('search', filter.search.trim());
      return api.get(`${base}/all?${query.toString()}`, { schema: tenantPageSchema, signal });
    },
    // Keep the current page on screen while the next one loads: the table does not jump.
    placeholderData: keepPreviousData,
    meta: { errorDisplay: 'inline' },
  });

export const tenantDetailQuery = (id: string) =>
  queryOptions({
    queryKey: [...TENANTS_QUERY_ROOT, 'detail', id],
    queryFn: ({ signal }) => api.get(tenantPath(id), { schema: tenantDetailSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export const tenantConnectionsQuery = (id: string) =>
  queryOptions({
    queryKey: [...TENANTS_QUERY_ROOT, 'connections', id],
    queryFn: ({ signal }) =>
      api.get(`${tenantPath(id)}/connections`, { schema: tenantConnectionsSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

const templatePath = (id: string, key: EmailTemplateKey, language: Language, suffix = '') =>
  `${tenantPath(id)}/email-template/${key}${suffix}?language=${language}`;

export const emailTemplateQuery = (id: string, key: EmailTemplateKey, language: Language) =>
  queryOptions({
    queryKey: [...TENANTS_QUERY_ROOT, 'email-template', id, key, language],
    queryFn: ({ signal }) =>
      api.get(templatePath(id, key, language), { schema: emailTemplateSchema, signal }),
    meta: { errorDisplay: 'inline' },
  });

export function createTenant(input: TenantCreate) {
  return api.post(base, input, { schema: tenantDetailSchema });
}

export function updateTenant(id: string, input: TenantUpdate) {
  return api.put(tenantPath(id), input, { schema: tenantDetailSchema });
}

export function updateTenantSettings(id: string, input: TenantSettingsUpdate) {
  return api.put(`${tenantPath(id)}/settings`, input, { schema: tenantDetailSchema });
}

export function uploadTenantLogo(id: string, kind: TenantLogoKind, file: File) {
  const body = new FormData();
  body.append('file', file);
  return api.post(`${tenantPath(id)}/logo?kind=${kind}`, body, { schema: tenantDetailSchema });
}

export function saveEmailTemplate(
  id: string,
  key: EmailTemplateKey,
  language: Language,
  input: { subject: string; body: string },
) {
  return api.put(templatePath(id, key, language), input, { schema: emailTemplateSchema });
}

export function previewEmailTemplate(
  id: string,
  key: EmailTemplateKey,
  language: Language,
  input: { subject: string; body: string },
) {
  return api.post(templatePath(id, key, language, '/preview'), input, { schema: emailTemplatePreviewSchema });
}

export const tenantGatewaysQuery = (id: string) =>
  queryOptions({
    queryKey: [...TENANTS_QUERY_ROOT, 'gateways', id],
    queryFn: ({ signal }) => api.get(`${tenantPath(id)}/gateways`, { schema: messageGatewaySchema.array(), signal }),
  });

export function saveTenantGateway(id: string, channel: MessageGatewayChannel, input: MessageGatewayUpdate) {
  return api.put(`${tenantPath(id)}/gateways/${channel}`, input, { schema: messageGatewaySchema });
}

export function testTenantGateway(id: string, channel: MessageGatewayChannel, to: string) {
  return api.post(`${tenantPath(id)}/gateways/${channel}/test`, { to }, { schema: messageGatewayTestResultSchema });
}

export function testTenantConnections(id: string, input: TenantConnectionsInput) {
  return api.post(`${tenantPath(id)}/connections/test`, input, { schema: tenantConnectionTestSchema });
}

export function saveTenantConnections(id: string, input: TenantConnectionsInput) {
  return api.put(`${tenantPath(id)}/connections`, input, { schema: tenantConnectionsSchema });
}
