import type { ReactNode } from 'react';
import { Alert, Button, Center, EmptyState, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatNumber } from '../../lib/format';
import { messageText } from '../../lib/notify';
import { AlertIcon, InboxIcon } from './icons';

/** A list or panel that is loading, said in words for screen readers too. */
export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Group gap="sm" role="status" aria-live="polite">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm">
          {label ?? t('states.loading')}
        </Text>
      </Group>
    </Center>
  );
}

/** A failed load with the reason (spec §7 messages) and Retry, which repeats only that load. */
export function ErrorState({
  error,
  title,
  onRetry,
}: {
  error: unknown;
  title?: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      title={title ?? t('states.loadFailed')}
      icon={<AlertIcon />}
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{messageText(errorMessageFor(error))}</Text>
        <Button size="xs" color="red" onClick={onRetry}>
          {t('actions.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

/** Nothing to show yet, with what the user can do about it. */
export function EmptyList({
  title,
  description,
  action,
}: {
  title: string;
  description?: string;
  action?: ReactNode;
}) {
  return (
    <EmptyState
      py="xl"
      icon={<InboxIcon width={28} height={28} />}
      withIndicatorBackground
      title={title}
      description={description}
    >
      {action ? <EmptyState.Actions>{action}</EmptyState.Actions> : null}
    </EmptyState>
  );
}

/** "1–20 of 57" and the page buttons under a table; pages are 0-based like the API's. */
export function TablePager({
  page,
  size,
  total,
  isTotalExact = true,
  onChange,
}: {
  page: number;
  size: number;
  total: number;
  /** False when the list stopped counting: there are more than `total` (the pages shown go on as they are read). */
  isTotalExact?: boolean | undefined;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : page * size + 1;
  const last = Math.min(total, (page + 1) * size);
  const summary = { first: formatNumber(first), last: formatNumber(last), total: formatNumber(total) };
  return (
    <Group justify="space-between" mt="md">
      <Text fz="sm" c="dimmed" data-testid="pager-summary">
        {t(isTotalExact ? 'states.range' : 'states.rangeMore', summary)}
      </Text>
      <Pagination
        total={pages}
        value={page + 1}
        onChange={(value) => {
          onChange(value - 1);
        }}
        size="sm"
        getControlProps={(control) => ({
          'aria-label':
            control === 'previous'
              ? t('states.previousPage')
              : control === 'next'
                ? t('states.nextPage')
                : undefined,
        })}
        getItemProps={(value) => ({ 'aria-label': t('states.page', { page: value }) })}
      />
    </Group>
  );
}
