import { measureSlug, type Measure } from '@rpm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dashboardQuery } from './health-api';
import { unitLabel } from './format';

/** The measures, in the groups a patient looks for them. */
export const MEASURE_GROUPS: { key: string; measures: Measure[] }[] = [
  {
    key: 'vitals',
    measures: ['HEART_RATE', 'SPO2', 'SYSTOLIC', 'DIASTOLIC', 'HRV', 'TEMPERATURE', 'RESPIRATION'],
  },
  { key: 'blood', measures: ['GLUCOSE', 'CHOLESTEROL', 'URIC_ACID'] },
  { key: 'activity', measures: ['STEPS', 'CALORIES'] },
  {
    key: 'body',
    measures: [
      'WEIGHT',
      'HEIGHT',
      'BMI',
      'BODY_FAT_RATE',
      'BODY_WATER_RATE',
      'BODY_MUSCLE_RATE',
      'BODY_MUSCLE_MASS',
      'BONE_MASS',
      'BONE_RATE',
    ],
  },
];

/** /health — every measure (with its latest value when there is one), sleep and the OSAHS screening. */
export function HealthHubPage() {
  const { t, i18n } = useTranslation('appHealth');
  const dashboard = useQuery(dashboardQuery());
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const latest = new Map((dashboard.data?.readings ?? []).map((reading) => [reading.measure, reading]));
  return (
    <div className="health-page">
      <h1>{t('hub.title')}</h1>
      <nav className="card tiles" aria-label={t('hub.sleepLabel')}>
        <Link className="tile" to="/health/sleep">
          {t('hub.sleep')}
        </Link>
        <Link className="tile" to="/health/osahs">
          {t('hub.osahs')}
        </Link>
      </nav>
      {MEASURE_GROUPS.map((group) => (
        <section key={group.key} className="card" aria-labelledby={`group-${group.key}`}>
          <h2 id={`group-${group.key}`}>{t(`hub.groups.${group.key}`)}</h2>
          <ul className="measure-links">
            {group.measures.map((measure) => {
              const reading = latest.get(measure);
              return (
                <li key={measure}>
                  <Link to={`/health/${measureSlug(measure)}`}>
                    <span>{t(`health:measures.${measure}`)}</span>
                    {reading ? (
                      <span className="measure-latest">
                        {number.format(reading.value)} {unitLabel(t, reading.unit)}
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
