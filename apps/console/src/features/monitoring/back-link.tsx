import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { areaPath } from '../shell/navigation';
import { usePermissions } from '../shell/permissions';
import { useSession } from '../shell/session-context';
import { backTargetFor } from './back-target';

/**
 * The back link of an SOS case or ticket page (back-target.ts): the list for handlers, the
 * previous page or the patient for a doctor. `listLabel` names the list ("← SOS call list").
 */
export function BackLink({ listLabel, patientId }: { listLabel: string; patientId: string }) {
  const { t } = useTranslation('monitoring');
  const navigate = useNavigate();
  // The first entry of a visit has the key "default": there is no page of ours to go back to.
  const hasPrevious = useLocation().key !== 'default';
  const { can } = usePermissions();
  const area = areaPath(useSession().area);
  const target = backTargetFor({
    canOpenList: can('health.sos'),
    hasPrevious,
    canOpenPatient: can('user.view'),
    patientId,
  });
  switch (target.kind) {
    case 'list':
      return (
        <Anchor component={Link} to=".." relative="path" fz="sm">
          {listLabel}
        </Anchor>
      );
    case 'previous':
      return (
        <Anchor
          component="button"
          type="button"
          fz="sm"
          ta="left"
          onClick={() => {
            void navigate(-1);
          }}
        >
          {t('detail.backPrevious')}
        </Anchor>
      );
    case 'patient':
      return (
        <Anchor component={Link} to={`../../patients/${target.patientId}`} relative="path" fz="sm">
          {t('detail.backToPatient')}
        </Anchor>
      );
    case 'home':
      return (
        <Anchor component={Link} to={area} fz="sm">
          {t('detail.backHome')}
        </Anchor>
      );
  }
}
