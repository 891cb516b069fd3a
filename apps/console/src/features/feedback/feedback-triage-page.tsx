import { useState } from 'react';
import { Alert, Button, Drawer, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  FEEDBACK_CATEGORIES,
  FEEDBACK_REPLY_MAX,
  FEEDBACK_STATUSES,
  FEEDBACK_TRANSITIONS,
  FEEDBACK_TYPES,
  type Feedback,
  type FeedbackStatus,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { messageText, notifySuccess } from '../../lib/notify';
import type { Column } from '../shell/columns';
import { DataTable } from '../shell/data-table';
import { ListSearchField, ValueFilter } from '../shell/data-table-filters';
import { usePagedList } from '../shell/paged-list';
import { ErrorState, LoadingState } from '../shell/query-states';
import { usePageTitle } from '../shell/use-page-title';
import {
  changeFeedbackStatus,
  feedbackDetailQuery,
  feedbackListQuery,
  refreshFeedback,
  replyToFeedback,
  type FeedbackFilter,
  type FeedbackSortField,
} from './feedback-api';
import { FeedbackImages, FeedbackReplies, FeedbackStatusBadge } from './feedback-parts';

/** One feedback in the drawer: what was sent, its images, the replies, the status and a reply box. */
function FeedbackDetail({ id }: { id: string }) {
  const { t, i18n } = useTranslation('account');
  const queryClient = useQueryClient();
  const detail = useQuery(feedbackDetailQuery(id));
  const [reply, setReply] = useState('');
  const [isReplyTried, setReplyTried] = useState(false);
  const move = useMutation({
    mutationFn: (status: FeedbackStatus) => changeFeedbackStatus(id, status),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      refreshFeedback(queryClient);
      notifySuccess(t('feedback.triage.statusChanged'));
    },
  });
  const answer = useMutation({
    mutationFn: () => replyToFeedback(id, reply),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      setReply('');
      setReplyTried(false);
      refreshFeedback(queryClient);
      notifySuccess(t('feedback.triage.replied'));
    },
  });
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => void detail.refetch()} />;
  const item: Feedback = detail.data;
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const next = FEEDBACK_TRANSITIONS[item.status];
  const isReplyBlank = reply.trim() === '';
  return (
    <Stack gap="md" data-testid="feedback-detail">
      <Group justify="space-between">
        <Text fw={600}>
          {t(`feedback.types.${item.type}`)} · {t(`feedback.categories.${item.category}`)}
        </Text>
        <FeedbackStatusBadge status={item.status} />
      </Group>
      <Text fz="sm" c="dimmed">
        {t('feedback.triage.sentBy', { name: item.sender.fullName || t('feedback.unknownSender'), kind: t(`feedback.senderKinds.${item.sender.kind}`), at: format.format(new Date(item.createdAt)) })}
      </Text>
      <Stack gap={4}>
        <Text fw={600} fz="sm">
          {t('feedback.fields.description')}
        </Text>
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="feedback-description-text">
          {item.description}
        </Text>
      </Stack>
      {item.suggestion === null ? null : (
        <Stack gap={4}>
          <Text fw={600} fz="sm">
            {t('feedback.fields.suggestion')}
          </Text>
          <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {item.suggestion}
          </Text>
        </Stack>
      )}
      <FeedbackImages feedback={item} />
      {next.length > 0 ? (
        <Group gap="xs">
          <Text fz="sm">{t('feedback.triage.moveTo')}</Text>
          {next.map((status) => (
            <Button
              key={status}
              size="xs"
              variant="light"
              loading={move.isPending && move.variables === status}
              onClick={() => {
                move.mutate(status);
              }}
              data-testid={`feedback-move-${status}`}
            >
              {t(`feedback.statuses.${status}`)}
            </Button>
          ))}
        </Group>
      ) : null}
      {move.isError ? (
        <Alert color="red" variant="light" role="alert">
          {messageText(errorMessageFor(move.error))}
        </Alert>
      ) : null}
      <Title order={3} fz="md">
        {t('feedback.replies')}
      </Title>
      <FeedbackReplies feedback={item} />
      {item.status === 'CLOSED' ? (
        <Text fz="sm" c="dimmed">
          {t('feedback.triage.closedNoReply')}
        </Text>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setReplyTried(true);
            if (!isReplyBlank) answer.mutate();
          }}
        >
          <Stack gap="xs">
            <Textarea
              label={t('feedback.triage.replyLabel')}
              description={t('feedback.triage.replyHint')}
              value={reply}
              onChange={(event) => {
                setReply(event.currentTarget.value);
              }}
              maxLength={FEEDBACK_REPLY_MAX}
              autosize
              minRows={3}
              error={isReplyTried && isReplyBlank ? t('feedback.triage.replyRequired') : null}
              data-testid="feedback-reply"
            />
            {answer.isError ? (
              <Alert color="red" variant="light" role="alert">
                {messageText(errorMessageFor(answer.error))}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button type="submit" loading={answer.isPending} data-testid="feedback-reply-send">
                {t('feedback.triage.sendReply')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

/**
 * Customer care's feedback list (spec §2 feedback; §3 Feedback): the feedback of the centers the
 * caller sees, filtered by status, type and category, searched, sorted and paged; a row opens its
 * detail in a drawer.
 */
export function FeedbackTriagePage() {
  const { t, i18n } = useTranslation('account');
  usePageTitle(t('feedback.triage.title'));
  const list = usePagedList<FeedbackSortField, Omit<FeedbackFilter, 'search'>>({
    page: 0,
    size: 20,
    sortField: 'created',
    sortType: 'desc',
    status: null,
    type: null,
    category: null,
  });
  const rows = useQuery(feedbackListQuery({ ...list.filter, search: list.debouncedSearch }));
  const [openId, setOpenId] = useState<string | null>(null);
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const columns: Column<Feedback, FeedbackSortField>[] = [
    { id: 'created', header: t('feedback.columns.created'), sortField: 'created', isNoWrap: true, cell: (row) => format.format(new Date(row.createdAt)) },
    {
      id: 'description',
      header: t('feedback.columns.description'),
      cell: (row) => (
        <Button variant="subtle" size="compact-sm" onClick={() => { setOpenId(row.id); }} data-testid="feedback-open" maw={360}>
          <Text fz="sm" truncate>
            {row.description}
          </Text>
        </Button>
      ),
    },
    { id: 'type', header: t('feedback.fields.type'), isNoWrap: true, cell: (row) => t(`feedback.types.${row.type}`) },
    { id: 'category', header: t('feedback.fields.category'), isNoWrap: true, cell: (row) => t(`feedback.categories.${row.category}`) },
    { id: 'sender', header: t('feedback.columns.sender'), cell: (row) => `${row.sender.fullName || t('feedback.unknownSender')} (${t(`feedback.senderKinds.${row.sender.kind}`)})` },
    { id: 'images', header: t('feedback.columns.images'), align: 'right', cell: (row) => row.images.length },
    { id: 'status', header: t('feedback.fields.status'), sortField: 'status', isNoWrap: true, cell: (row) => <FeedbackStatusBadge status={row.status} /> },
    { id: 'updated', header: t('feedback.columns.updated'), sortField: 'updated', isNoWrap: true, visibleFrom: 'lg', cell: (row) => format.format(new Date(row.updatedAt)) },
  ];
  const { filter } = list;
  const isFiltered = list.debouncedSearch.trim() !== '' || filter.status !== null || filter.type !== null || filter.category !== null;
  return (
    <Stack gap="lg">
      <Stack gap={2}>
        <Title order={1} fz={26}>
          {t('feedback.triage.title')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('feedback.triage.subtitle')}
        </Text>
      </Stack>
      <Group align="flex-end" gap="sm">
        <ListSearchField list={list} label={t('feedback.triage.search')} placeholder={t('feedback.triage.searchPlaceholder')} width={280} />
        <ValueFilter values={FEEDBACK_STATUSES} labelOf={(value) => t(`feedback.statuses.${value}`)} value={filter.status} onChange={(status) => { list.update({ status }); }} label={t('feedback.fields.status')} placeholder={t('feedback.triage.all')} width={170} />
        <ValueFilter values={FEEDBACK_TYPES} labelOf={(value) => t(`feedback.types.${value}`)} value={filter.type} onChange={(type) => { list.update({ type }); }} label={t('feedback.fields.type')} placeholder={t('feedback.triage.all')} width={170} />
        <ValueFilter values={FEEDBACK_CATEGORIES} labelOf={(value) => t(`feedback.categories.${value}`)} value={filter.category} onChange={(category) => { list.update({ category }); }} label={t('feedback.fields.category')} placeholder={t('feedback.triage.all')} width={170} />
      </Group>
      <DataTable
        columns={columns}
        query={rows}
        list={list}
        label={t('feedback.triage.title')}
        testId="feedback-table"
        rowTestId="feedback-row"
        isFiltered={isFiltered}
        texts={{
          loadFailed: t('feedback.triage.loadFailed'),
          emptyTitle: t('feedback.triage.empty'),
          noMatchTitle: t('feedback.triage.noMatch'),
          noMatchHint: t('feedback.triage.noMatchHint'),
        }}
        minWidth={900}
      />
      <Drawer opened={openId !== null} onClose={() => { setOpenId(null); }} position="right" size="lg" title={t('feedback.triage.detailTitle')}>
        {openId === null ? null : <FeedbackDetail id={openId} />}
      </Drawer>
    </Stack>
  );
}
