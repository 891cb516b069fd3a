import { useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Center,
  ColorSwatch,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TenantRequest } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { areaPath } from '../shell/navigation';
import { Can } from '../shell/permissions';
import { ErrorState, LoadingState } from '../shell/query-states';
import { useSession } from '../shell/session-context';
import { usePageTitle } from '../shell/use-page-title';
import { RequestStatusBadge } from './tenant-badges';
import { ApproveDialog, RejectDialog } from './trial-request-decision';
import { trialRequestQuery } from './trial-requests-api';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text fz="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Logo({ url, label, width, height }: { url: string; label: string; width: number; height: number }) {
  return (
    <Stack gap={4} align="center">
      <Center
        w={width}
        h={height}
        bg="gray.0"
        style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 8 }}
      >
        <Image src={url} alt={label} fit="contain" w={width - 8} h={height - 8} />
      </Center>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** What was decided, shown instead of the actions: a decided request is read-only. */
function Decision({ request }: { request: TenantRequest }) {
  const { t } = useTranslation('tenants');
  const { area } = useSession();
  const when = request.decidedAt ? formatDateTime(request.decidedAt) : '';
  if (request.status === 'APPROVED')
    return (
      <Alert
        color="teal"
        variant="light"
        title={t('requests.approvedTitle', { when })}
        data-testid="request-decision"
      >
        {request.createdTenantId ? (
          <Anchor component={Link} to={areaPath(area, `tenants/${request.createdTenantId}`)} fz="sm">
            {t('requests.openTenant')}
          </Anchor>
        ) : null}
      </Alert>
    );
  return (
    <Alert
      color="red"
      variant="light"
      title={t('requests.rejectedTitle', { when })}
      data-testid="request-decision"
    >
      {t('requests.reasonWas', { reason: request.rejectionReason ?? '' })}
    </Alert>
  );
}

function RequestView({ request }: { request: TenantRequest }) {
  const { t } = useTranslation('tenants');
  const [dialog, setDialog] = useState<'approve' | 'reject' | null>(null);
  const close = () => {
    setDialog(null);
  };

  return (
    <Stack gap="lg">
      {request.status === 'NEW' ? (
        <Group gap="sm">
          <Can permission="tenant.create">
            <Button
              color="teal"
              onClick={() => {
                setDialog('approve');
              }}
            >
              {t('requests.approve')}
            </Button>
          </Can>
          <Button
            variant="light"
            color="red"
            onClick={() => {
              setDialog('reject');
            }}
          >
            {t('requests.reject')}
          </Button>
        </Group>
      ) : (
        <Decision request={request} />
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder radius="md" p="lg">
          <Title order={2} fz="lg" mb="md">
            {t('requests.organizationTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="md">
            <Field label={t('requests.organization')}>{request.organizationName}</Field>
            <Field label={t('information.officialName')}>{request.officialName || '—'}</Field>
            <Field label={t('requests.code')}>{request.requestedCode}</Field>
            <Field label={t('branding.color')}>
              {request.primaryColor ? (
                <Group gap={6}>
                  <ColorSwatch color={request.primaryColor} size={16} />
                  {request.primaryColor}
                </Group>
              ) : (
                '—'
              )}
            </Field>
            <Field label={t('email.language')}>
              {t(`languages.${request.language === 'vi' ? 'vi' : 'en'}`)}
            </Field>
          </SimpleGrid>
        </Paper>
        <Paper withBorder radius="md" p="lg">
          <Title order={2} fz="lg" mb="md">
            {t('requests.requesterTitle')}
          </Title>
          <SimpleGrid cols={2} spacing="md">
            <Field label={t('requests.requester')}>{request.requesterName}</Field>
            <Field label={t('trial.email')}>{request.email}</Field>
            <Field label={t('trial.phone')}>{request.phone || '—'}</Field>
            <Field label={t('requests.received')}>{formatDateTime(request.createdAt)}</Field>
          </SimpleGrid>
          <Stack mt="md">
            <Field label={t('trial.message')}>
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {request.message || '—'}
              </Text>
            </Field>
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder radius="md" p="lg">
        <Title order={2} fz="lg" mb="md">
          {t('requests.logosTitle')}
        </Title>
        <Group gap="xl" align="flex-start">
          <Logo url={request.logos.square} label={t('branding.kinds.square')} width={140} height={140} />
          <Logo
            url={request.logos.horizontal}
            label={t('branding.kinds.horizontal')}
            width={320}
            height={100}
          />
        </Group>
      </Paper>
      {/* Mounted whatever the status: when another admin decided first, the refreshed request
          is decided while the dialog still has to say so. */}
      <ApproveDialog request={request} opened={dialog === 'approve'} onClose={close} />
      <RejectDialog request={request} opened={dialog === 'reject'} onClose={close} />
    </Stack>
  );
}

/** /<area>/trial-requests/:requestId: the request, its logos, and approve or reject while NEW. */
export function TrialRequestDetailPage() {
  const { t } = useTranslation('tenants');
  const { requestId = '' } = useParams();
  const request = useQuery(trialRequestQuery(requestId));
  usePageTitle(request.data?.organizationName ?? t('requests.detailTitle'));

  return (
    <Stack gap="lg" maw={1180}>
      <Stack gap={4}>
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {t('requests.backToList')}
        </Anchor>
        <Group gap="sm">
          <Title order={1} fz={26}>
            {request.data?.organizationName ?? t('requests.detailTitle')}
          </Title>
          {request.data ? <RequestStatusBadge status={request.data.status} /> : null}
        </Group>
      </Stack>
      {request.isPending ? <LoadingState /> : null}
      {request.isError ? (
        <ErrorState
          error={request.error}
          title={t('requests.detailLoadFailed')}
          onRetry={() => void request.refetch()}
        />
      ) : null}
      {request.isSuccess ? <RequestView request={request.data} /> : null}
    </Stack>
  );
}
