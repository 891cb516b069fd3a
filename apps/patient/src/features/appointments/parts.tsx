/** Small parts the appointments screens share: the state badge and the when line. */
import type { AppAppointmentState, MyAppointment } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';
import { dayText, timeRangeText } from './format';

/** An appointment's app state as a coloured badge, in words. */
export function StateBadge({ state }: { state: AppAppointmentState }) {
  const { t } = useTranslation('appAppointments');
  return (
    <span className={`badge appointment-state state-${state.toLowerCase()}`} data-testid="appointment-state">
      {t(`state.${state}`)}
    </span>
  );
}

/** When the appointment is: its day on one line, its times (never split) on the next. */
export function WhenText({ appointment }: { appointment: Pick<MyAppointment, 'startAt' | 'endAt'> }) {
  const { i18n } = useTranslation();
  return (
    <>
      <span className="when-day">{dayText(i18n.language, appointment.startAt)}</span>
      <span className="when-time">{timeRangeText(i18n.language, appointment.startAt, appointment.endAt)}</span>
    </>
  );
}
