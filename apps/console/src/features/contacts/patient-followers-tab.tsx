import { useEffect, useState, type ReactNode } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Menu,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Contact } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { errorMessageFor } from '../../api/error-reaction';
import { formatDate, formatTime } from '../../lib/format';
import { messageText, notifySuccess } from '../../lib/notify';
import { ariaSortOf, nextSort, sortMarkOf, type SortState } from '../shell/columns';
import { ConfirmDialog } from '../shell/confirm-dialog';
import { DotsIcon, PlusIcon } from '../shell/icons';
import { Can, usePermissions } from '../shell/permissions';
import { EmptyList, ErrorState, LoadingState } from '../shell/query-states';
import { patientFollowersQuery, refreshFollowers, removeFollower, resendInvitation } from './contacts-api';
import { FavouriteStar, HiddenKindChips, InvitationBadge } from './follower-badges';
import { FollowerFormDialog, type FollowerFormMode } from './follower-form-dialog';
import { canResendNow, orderFollowers, type FollowerSortField } from './follower-order';

/**
 * The current time, moved on when the next invitation's resend wait ends, so its Resend button
 * turns on by itself (no ticking: one timer to the next moment that changes something).
 */
function useNowUntil(moments: readonly (string | null)[]): Date {
  const [now, setNow] = useState(() => new Date());
  const next = moments
    .map((moment) => (moment === null ? Number.NaN : Date.parse(moment)))
    .filter((time) => Number.isFinite(time) && time > now.getTime())
    .reduce((earliest, time) => Math.min(earliest, time), Number.POSITIVE_INFINITY);
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(
      () => {
        setNow(new Date());
      },
      Math.max(0, next - Date.now()) + 50,
    );
    return () => {
      clearTimeout(timer);
    };
  }, [next]);
  return now;
}

function SortHeader({
  field,
  sort,
  onSort,
  children,
}: {
  field: FollowerSortField;
  sort: SortState<FollowerSortField> | null;
  onSort: (field: FollowerSortField) => void;
  children: ReactNode;
}) {
  // Until a column is chosen the rows are in call order: every sortable column says "none".
  const shown = sort === null ? 'none' : ariaSortOf({ sortField: field }, sort);
  return (
    <Table.Th aria-sort={shown}>
      {/* A button, so the order changes from the keyboard as from the mouse. */}
      <UnstyledButton
        onClick={() => {
          onSort(field);
        }}
        fw={600}
        fz="sm"
      >
        {children} {sortMarkOf(shown)}
      </UnstyledButton>
    </Table.Th>
  );
}

/** The invitation's state, and what comes next: when it may be resent, or when it was confirmed. */
function InvitationCell({ contact, now }: { contact: Contact; now: Date }) {
  const { t } = useTranslation('patientContacts');
  const isPending = contact.invitationStatus === 'SENT' || contact.invitationStatus === 'RESENT';
  return (
    <Stack gap={2} align="flex-start">
      <InvitationBadge status={contact.invitationStatus} />
      {isPending && contact.resendAvailableAt !== null && !canResendNow(contact, now) ? (
        <Text fz="xs" c="dimmed" data-testid="resend-available" style={{ whiteSpace: 'nowrap' }}>
          {t('contacts.resendFrom', { time: formatTime(contact.resendAvailableAt) })}
        </Text>
      ) : null}
      {contact.confirmedAt === null ? null : (
        <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('contacts.confirmedOn', { date: formatDate(contact.confirmedAt) })}
        </Text>
      )}
    </Stack>
  );
}

/** Resend (only while the invitation waits for an answer, after its 5 minutes), edit, remove. */
function RowActions({
  contact,
  now,
  onResend,
  onEdit,
  onRemove,
}: {
  contact: Contact;
  now: Date;
  onResend: () => void;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('patientContacts');
  const isPending = contact.invitationStatus === 'SENT' || contact.invitationStatus === 'RESENT';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('contacts.actionsFor', { name: contact.name })}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {isPending ? (
          <Menu.Item disabled={!canResendNow(contact, now)} onClick={onResend}>
            {t('contacts.resend')}
          </Menu.Item>
        ) : null}
        <Menu.Item onClick={onEdit}>{t('contacts.edit')}</Menu.Item>
        <Menu.Item color="red" onClick={onRemove}>
          {t('contacts.remove')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function FollowersTable({
  patientId,
  contacts,
  onEdit,
}: {
  patientId: string;
  contacts: readonly Contact[];
  onEdit: (contact: Contact) => void;
}) {
  const { t, i18n } = useTranslation('patientContacts');
  const { t: tm } = useTranslation('monitoring');
  const queryClient = useQueryClient();
  const canChange = usePermissions().can('relative.update');
  const [sort, setSort] = useState<SortState<FollowerSortField> | null>(null);
  const [removing, setRemoving] = useState<Contact | null>(null);
  const now = useNowUntil(contacts.map((contact) => contact.resendAvailableAt));

  const resend = useMutation({
    mutationFn: (contact: Contact) => resendInvitation(patientId, contact.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: (sent) => {
      notifySuccess(t('contacts.resent', { name: sent.name }));
      refreshFollowers(queryClient);
    },
  });
  const remove = useMutation({
    mutationFn: (contact: Contact) => removeFollower(patientId, contact.id),
    meta: { errorDisplay: 'inline' },
    onSuccess: () => {
      notifySuccess(t('contacts.removed'));
      refreshFollowers(queryClient);
      setRemoving(null);
    },
  });
  const onSort = (field: FollowerSortField) => {
    setSort((current) => (current === null ? { sortField: field, sortType: 'asc' } : nextSort(current, field)));
  };
  const shown = orderFollowers(contacts, sort, i18n.language);

  return (
    <Stack gap="sm">
      {resend.isError ? (
        <Alert color="red" variant="light" role="alert" data-testid="resend-error">
          {messageText(errorMessageFor(resend.error))}
        </Alert>
      ) : null}
      {sort === null ? null : (
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="subtle"
            onClick={() => {
              setSort(null);
            }}
          >
            {t('contacts.callOrder')}
          </Button>
        </Group>
      )}
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" aria-label={t('contacts.caption')} data-testid="followers-table">
          <Table.Thead>
            <Table.Tr>
              <SortHeader field="name" sort={sort} onSort={onSort}>
                {t('contacts.columns.name')}
              </SortHeader>
              <Table.Th>{t('contacts.columns.phone')}</Table.Th>
              <SortHeader field="contactType" sort={sort} onSort={onSort}>
                {t('contacts.columns.type')}
              </SortHeader>
              <SortHeader field="invitationStatus" sort={sort} onSort={onSort}>
                {t('contacts.columns.state')}
              </SortHeader>
              <Table.Th>{t('contacts.columns.account')}</Table.Th>
              <Table.Th title={t('contacts.hiddenHint')}>{t('contacts.columns.hidden')}</Table.Th>
              <SortHeader field="createdAt" sort={sort} onSort={onSort}>
                {t('contacts.columns.added')}
              </SortHeader>
              {canChange ? (
                <Table.Th w={48}>
                  <VisuallyHidden>{t('contacts.columns.actions')}</VisuallyHidden>
                </Table.Th>
              ) : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((contact) => (
              <Table.Tr key={contact.id} data-testid="follower-row">
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Text fw={600} fz="sm" data-testid="follower-name">
                      {contact.name}
                    </Text>
                    <FavouriteStar isFavourite={contact.favourite} />
                  </Group>
                  <Text fz="xs" c="dimmed">
                    {tm(`relationship.${contact.relationship}`)}
                  </Text>
                </Table.Td>
                <Table.Td ff="monospace" fz="sm">
                  {contact.phone}
                </Table.Td>
                <Table.Td fz="sm">{tm(`contactType.${contact.contactType}`)}</Table.Td>
                <Table.Td>
                  <InvitationCell contact={contact} now={now} />
                </Table.Td>
                <Table.Td fz="sm">
                  {contact.follower === null ? (
                    <Text fz="sm" c="dimmed">
                      {t('contacts.notConfirmed')}
                    </Text>
                  ) : (
                    <Text fz="sm" data-testid="follower-account">
                      {contact.follower.name}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <HiddenKindChips kinds={contact.hiddenKinds} />
                </Table.Td>
                <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(contact.createdAt)}
                </Table.Td>
                {canChange ? (
                  <Table.Td>
                    <RowActions
                      contact={contact}
                      now={now}
                      onResend={() => {
                        resend.mutate(contact);
                      }}
                      onEdit={() => {
                        onEdit(contact);
                      }}
                      onRemove={() => {
                        remove.reset();
                        setRemoving(contact);
                      }}
                    />
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        isOpen={removing !== null}
        title={t('contacts.removeTitle')}
        text={
          removing?.invitationStatus === 'CONFIRMED'
            ? t('contacts.removeTextConfirmed', { name: removing.name })
            : t('contacts.removeText', { name: removing?.name ?? '' })
        }
        confirmLabel={t('contacts.remove')}
        confirmColor="red"
        isPending={remove.isPending}
        error={remove.error}
        onConfirm={() => {
          if (removing) remove.mutate(removing);
        }}
        onClose={() => {
          setRemoving(null);
        }}
      />
    </Stack>
  );
}

/**
 * The followers tab of a patient profile (spec §1, §3 Follower or relative, §4 relative
 * invitation): emergency, caring and coach contacts with their invitation state, the app account
 * that confirmed, and what the patient hides from each (read only: the patient decides). Staff
 * with relative.update add (an SMS invitation goes out), edit, resend and remove.
 */
export function PatientFollowersTab({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patientContacts');
  const followers = useQuery(patientFollowersQuery(patientId));
  const [mode, setMode] = useState<FollowerFormMode | null>(null);
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2} maw={760}>
            <Title order={2} fz="lg">
              {t('contacts.title')}
            </Title>
            <Text c="dimmed" fz="sm">
              {t('contacts.subtitle')}
            </Text>
          </Stack>
          <Can permission="relative.update">
            <Button
              leftSection={<PlusIcon />}
              onClick={() => {
                setMode({ kind: 'add' });
              }}
            >
              {t('contacts.add')}
            </Button>
          </Can>
        </Group>
        {followers.isPending ? <LoadingState /> : null}
        {followers.isError ? (
          <ErrorState
            error={followers.error}
            title={t('contacts.loadFailed')}
            onRetry={() => void followers.refetch()}
          />
        ) : null}
        {followers.isSuccess && followers.data.length === 0 ? (
          <EmptyList title={t('contacts.empty')} description={t('contacts.emptyHint')} />
        ) : null}
        {followers.isSuccess && followers.data.length > 0 ? (
          <FollowersTable
            patientId={patientId}
            contacts={followers.data}
            onEdit={(contact) => {
              setMode({ kind: 'edit', contact });
            }}
          />
        ) : null}
      </Stack>
      <FollowerFormDialog
        patientId={patientId}
        mode={mode}
        contacts={followers.data ?? []}
        onClose={() => {
          setMode(null);
        }}
      />
    </Paper>
  );
}
