import type { AnnouncementSummary } from '@rpm/contracts';
import { useTranslation } from 'react-i18next';

/** "Doctor, Patients · Center A": who an announcement reaches, in words. */
export function useAudienceLabel() {
  const { t } = useTranslation('notifications');
  const { t: common } = useTranslation();
  return (audience: AnnouncementSummary['audience']) => {
    const who = [
      ...audience.staffRoles.map((role) => common(`roles.${role}`)),
      ...(audience.patients ? [t('announcements.patients')] : []),
    ].join(', ');
    const place = audience.center?.name ?? audience.scope?.name ?? t('announcements.wholeTenant');
    return `${who} · ${place}`;
  };
}
