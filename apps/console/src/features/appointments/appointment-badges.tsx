import { useEffect, useState } from 'react';
import { Badge, Text } from '@mantine/core';
import type { Appointment, AppointmentStatus } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { formatDate, formatTime } from '../../lib/format';
import { hoursAndMinutes, startDistance } from './appointment-time';

export const APPOINTMENT_STATUS_COLORS: Record<AppointmentStatus, string> = {
  UPCOMING: 'blue',
  WAITING_FOR_DOCTOR: 'violet',
  EXAMINING: 'teal',
  PENDING: 'yellow',
  COMPLETED: 'gray',
  CANCELED: 'red',
};

export function AppointmentStatusBadge({ status }: { status: AppointmentStatus }) {
  const { t } = useTranslation('schedules');
  return (
    <Badge
      color={APPOINTMENT_STATUS_COLORS[status]}
      variant="light"
      data-testid="appointment-status"
      data-status={status}
      styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
    >
      {t(`appointments.status.${status}`)}
    </Badge>
  );
}

/** The time now, renewed every `intervalMs` (30 s): enough for minutes shown to stay right. */
export function useNow(intervalMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => {
      setNow(new Date());
    }, intervalMs);
    return () => {
      clearInterval(timer);
    };
  }, [intervalMs]);
  return now;
}

/** "02/12/2026 08:00–08:30" in the user's zone. */
export function appointmentTime(appointment: Pick<Appointment, 'startAt' | 'endAt'>): string {
  return `${formatDate(appointment.startAt)} ${formatTime(appointment.startAt)}–${formatTime(appointment.endAt)}`;
}

/** "Overdue 12 min" (red) or "Starts in 35 min", live; nothing when neither applies. */
export function StartDistanceBadge({
  appointment,
  now,
}: {
  appointment: Pick<Appointment, 'status' | 'startAt'>;
  now: Date;
}) {
  const { t } = useTranslation('schedules');
  const distance = startDistance(appointment, now);
  if (distance === null) return null;
  const { hours, minutes } = hoursAndMinutes(distance.minutes);
  const time =
    hours === 0
      ? t('appointments.durationMinutes', { minutes })
      : t('appointments.durationHours', { hours, minutes });
  return distance.kind === 'overdue' ? (
    <Badge color="red" variant="filled" size="sm" data-testid="appointment-overdue">
      {t('appointments.overdue', { time })}
    </Badge>
  ) : (
    <Text fz="xs" c="dimmed" data-testid="appointment-starts-in">
      {t('appointments.startsIn', { time })}
    </Text>
  );
}

export function PaidBadge({ paid }: { paid: boolean }) {
  const { t } = useTranslation('schedules');
  return (
    <Badge color={paid ? 'teal' : 'gray'} variant={paid ? 'light' : 'outline'} size="sm">
      {paid ? t('appointments.paid') : t('appointments.unpaid')}
    </Badge>
  );
}
