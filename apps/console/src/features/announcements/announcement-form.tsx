import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, Paper, Radio, Select, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import {
  ANNOUNCEMENT_STAFF_ROLES,
  ANNOUNCEMENT_TITLE_MAX,
  type AnnouncementDetail,
  type AnnouncementStaffRole,
  type AnnouncementWrite,
} from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { displayTimeZone, parseDisplayDate, toDisplayDate } from '../../lib/format';
import { fieldMessageText, serverFieldMessages, type FieldMessages } from '../../lib/form-errors';
import { messageText } from '../../lib/notify';
import { isApiError } from '../../api/api-error';
import { errorMessageFor } from '../../api/error-reaction';
import { zonedDayStart } from '../appointments/appointment-time';
import { zonedPlace } from '../schedules/calendar-days';
import { useOrgReach } from '../levels/use-org-reach';
import { DateField } from '../shell/date-field';
import { AnnouncementBody } from './announcement-body';

type Place = 'tenant' | 'scope' | 'center';
type When = 'now' | 'schedule';
type Action = AnnouncementWrite['action'];

interface Values {
  title: string;
  body: string;
  place: Place;
  scopeId: string | null;
  centerId: string | null;
  staffRoles: AnnouncementStaffRole[];
  patients: boolean;
  push: boolean;
  email: boolean;
  when: When;
  day: string;
  time: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The editor (Tiptap, the heaviest part) arrives after the form is drawn, in its own chunk. */
const AnnouncementEditor = lazy(() => import('./announcement-editor').then((module) => ({ default: module.AnnouncementEditor })));

function initialValues(existing: AnnouncementDetail | undefined, isWholeTenant: boolean): Values {
  if (existing === undefined) {
    return {
      title: '',
      body: '',
      place: isWholeTenant ? 'tenant' : 'center',
      scopeId: null,
      centerId: null,
      staffRoles: [],
      patients: true,
      push: true,
      email: false,
      when: 'now',
      day: '',
      time: '',
    };
  }
  const zone = displayTimeZone();
  const at = existing.publishAt === null ? null : zonedPlace(existing.publishAt, zone);
  const pad = (value: number) => String(value).padStart(2, '0');
  return {
    title: existing.title,
    body: existing.bodyHtml,
    place: existing.audience.center !== null ? 'center' : existing.audience.scope !== null ? 'scope' : 'tenant',
    scopeId: existing.audience.scope?.id ?? null,
    centerId: existing.audience.center?.id ?? null,
    staffRoles: existing.audience.staffRoles,
    patients: existing.audience.patients,
    push: existing.channels.push,
    email: existing.channels.email,
    when: existing.status === 'SCHEDULED' ? 'schedule' : 'now',
    day: at === null ? '' : toDisplayDate(at.day),
    time: at === null ? '' : `${pad(Math.floor(at.minute / 60))}:${pad(at.minute % 60)}`,
  };
}

/** The form's checks, each with its own message, before anything is sent (the server checks again). */
function check(values: Values, action: Action): { messages: FieldMessages; publishAt: string | null } {
  const messages: FieldMessages = {};
  if (values.title.trim() === '') messages.title = { key: 'form.required' };
  if (values.body === '') messages.body = { key: 'form.required' };
  if (values.place === 'scope' && values.scopeId === null) messages.scopeId = { key: 'form.required' };
  if (values.place === 'center' && values.centerId === null) messages.centerId = { key: 'form.required' };
  if (values.staffRoles.length === 0 && !values.patients) messages.staffRoles = { key: 'form.chooseAtLeast', values: { count: 1 } };
  let publishAt: string | null = null;
  if (action === 'schedule') {
    const day = parseDisplayDate(values.day);
    const time = TIME.exec(values.time);
    if (day === null) messages.day = { key: 'form.dateInvalid' };
    if (time === null) messages.time = { key: 'form.invalidFormat' };
    if (day !== null && time !== null) {
      const minutes = Number(time[1]) * 60 + Number(time[2]);
      publishAt = new Date(Date.parse(zonedDayStart(day, displayTimeZone())) + minutes * 60_000).toISOString();
      if (Date.parse(publishAt) <= Date.now()) messages.day = { key: 'notifications:announcements.inFuture' };
    }
  }
  return { messages, publishAt };
}

/**
 * Compose or edit an announcement: title, rich-text body (with a preview), audience (a place of
 * the caller's level, the staff roles and/or patients there), channels, and when to publish it.
 */
export function AnnouncementForm({
  existing,
  isPending,
  error,
  onSubmit,
}: {
  existing?: AnnouncementDetail;
  isPending: boolean;
  error: unknown;
  onSubmit: (input: AnnouncementWrite) => void;
}) {
  const { t } = useTranslation('notifications');
  const { t: common } = useTranslation();
  const reach = useOrgReach();
  const [values, setValues] = useState<Values>(() => initialValues(existing, reach.isWholeTenant));
  const [messages, setMessages] = useState<FieldMessages>({});
  const [isPreviewOpen, setPreviewOpen] = useState(false);
  const change = (patch: Partial<Values>) => {
    setValues((current) => ({ ...current, ...patch }));
    // A field's message goes once it is changed (the next submit checks again).
    setMessages((current) => Object.fromEntries(Object.entries(current).filter(([field]) => !(field in patch))));
  };
  const server = serverFieldMessages(error, {
    'audience.staffRoles': 'staffRoles',
    'audience.scopeId': 'scopeId',
    'audience.centerId': 'centerId',
    publishAt: 'day',
  });
  const errorOf = (field: string) => fieldMessageText(messages[field] ?? server[field]);
  const isFieldError = isApiError(error) && error.fieldErrors.length > 0;

  const submit = (action: Action) => {
    const checked = check(values, action);
    setMessages(checked.messages);
    if (Object.keys(checked.messages).length > 0) return;
    onSubmit({
      title: values.title.trim(),
      body: values.body,
      audience: {
        scopeId: values.place === 'scope' ? values.scopeId : null,
        centerId: values.place === 'center' ? values.centerId : null,
        staffRoles: values.staffRoles,
        patients: values.patients,
      },
      channels: { push: values.push, email: values.email },
      action,
      publishAt: checked.publishAt,
    });
  };

  const places: Place[] = reach.isWholeTenant ? ['tenant', 'scope', 'center'] : ['scope', 'center'];
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit(values.when === 'schedule' ? 'schedule' : 'publish');
      }}
    >
      <Stack gap="lg" maw={880}>
        {error !== null && error !== undefined && !isFieldError ? (
          <Alert color="red" role="alert" data-testid="announcement-error">
            {messageText(errorMessageFor(error, 'notifications:announcements.saveFailed'))}
          </Alert>
        ) : null}
        <TextInput
          label={t('announcements.titleField')}
          required
          maxLength={ANNOUNCEMENT_TITLE_MAX}
          value={values.title}
          error={errorOf('title')}
          onChange={(event) => {
            change({ title: event.currentTarget.value });
          }}
        />
        <Suspense fallback={<Skeleton height={260} radius="md" aria-label={t('announcements.editorLoading')} />}>
          <AnnouncementEditor
            label={t('announcements.bodyField')}
            initialHtml={values.body}
            error={errorOf('body')}
            onChange={(body) => {
              change({ body });
            }}
          />
        </Suspense>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              {t('announcements.audience')}
            </Title>
            <Radio.Group
              label={t('announcements.where')}
              value={values.place}
              onChange={(place) => {
                change({ place: place });
              }}
            >
              <Group mt={6}>
                {places.map((place) => (
                  <Radio key={place} value={place} label={t(`announcements.places.${place}`)} />
                ))}
              </Group>
            </Radio.Group>
            {values.place === 'scope' ? (
              <Select
                label={t('announcements.scope')}
                required
                searchable
                data={reach.scopes.map((scope) => ({ value: scope.id, label: scope.name }))}
                value={values.scopeId}
                error={errorOf('scopeId')}
                onChange={(scopeId) => {
                  change({ scopeId });
                }}
                maw={420}
              />
            ) : null}
            {values.place === 'center' ? (
              <Select
                label={t('announcements.center')}
                required
                searchable
                data={reach.centers.map((center) => ({ value: center.id, label: center.name }))}
                value={values.centerId}
                error={errorOf('centerId')}
                onChange={(centerId) => {
                  change({ centerId });
                }}
                maw={420}
              />
            ) : null}
            <Checkbox.Group
              label={t('announcements.who')}
              description={t('announcements.whoHint')}
              value={values.staffRoles}
              error={errorOf('staffRoles')}
              onChange={(roles) => {
                change({ staffRoles: roles });
              }}
            >
              <Group mt={6} gap="md">
                {ANNOUNCEMENT_STAFF_ROLES.map((role) => (
                  <Checkbox key={role} value={role} label={common(`roles.${role}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <Checkbox
              label={t('announcements.patients')}
              checked={values.patients}
              onChange={(event) => {
                change({ patients: event.currentTarget.checked });
              }}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Title order={2} fz="lg">
              {t('announcements.channels')}
            </Title>
            <Text fz="sm" c="dimmed">
              {t('announcements.inAppAlways')}
            </Text>
            <Switch
              label={t('announcements.push')}
              checked={values.push}
              onChange={(event) => {
                change({ push: event.currentTarget.checked });
              }}
            />
            <Switch
              label={t('announcements.email')}
              checked={values.email}
              onChange={(event) => {
                change({ email: event.currentTarget.checked });
              }}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <Radio.Group
              label={t('announcements.whenField')}
              value={values.when}
              onChange={(when) => {
                change({ when: when });
              }}
            >
              <Group mt={6}>
                <Radio value="now" label={t('announcements.now')} />
                <Radio value="schedule" label={t('announcements.later')} />
              </Group>
            </Radio.Group>
            {values.when === 'schedule' ? (
              <Group align="flex-start">
                <DateField
                  label={t('announcements.day')}
                  value={values.day}
                  error={errorOf('day')}
                  isRequired
                  onChange={(day) => {
                    change({ day });
                  }}
                  width={180}
                />
                <TextInput
                  label={t('announcements.time')}
                  placeholder="HH:mm"
                  required
                  value={values.time}
                  error={errorOf('time')}
                  onChange={(event) => {
                    change({ time: event.currentTarget.value });
                  }}
                  w={120}
                />
                <Text fz="sm" c="dimmed" mt={30}>
                  {displayTimeZone()}
                </Text>
              </Group>
            ) : null}
          </Stack>
        </Paper>
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={() => {
              setPreviewOpen(true);
            }}
          >
            {t('announcements.preview')}
          </Button>
          <Group>
            <Button
              variant="default"
              loading={isPending}
              onClick={() => {
                submit('save');
              }}
            >
              {t('announcements.saveDraft')}
            </Button>
            <Button type="submit" loading={isPending}>
              {values.when === 'schedule' ? t('announcements.schedule') : t('announcements.publish')}
            </Button>
          </Group>
        </Group>
      </Stack>
      <Modal
        opened={isPreviewOpen}
        onClose={() => {
          setPreviewOpen(false);
        }}
        title={t('announcements.preview')}
        size="lg"
      >
        <Stack gap="sm" data-testid="announcement-preview">
          <Title order={2} fz="xl">
            {values.title === '' ? t('announcements.untitled') : values.title}
          </Title>
          <AnnouncementBody html={values.body} />
        </Stack>
      </Modal>
    </form>
  );
}
