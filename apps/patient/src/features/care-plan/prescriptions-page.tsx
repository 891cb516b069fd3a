import type { Medicine, PrescriptionSummary } from '@rpm/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { prescriptionQuery, prescriptionsQuery } from './care-plan-api';
import { DoseText, MedicinesNav } from './medicines-page';

function dateText(language: string, day: string): string {
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

function PrescriptionItem({ prescription }: { prescription: PrescriptionSummary }) {
  const { t, i18n } = useTranslation('appCarePlan');
  return (
    <li>
      <Link className="prescription-link" to={`/medicines/prescriptions/${prescription.id}`}>
        <span className="prescription-head">
          <span className="dose-name">{prescription.name}</span>
          <span className={`badge prescription-${prescription.state.toLowerCase()}`}>
            {t(`prescriptionState.${prescription.state}`)}
          </span>
        </span>
        <span className="dose-meta">
          {t('prescriptions.period', {
            start: dateText(i18n.language, prescription.startDate),
            end: dateText(i18n.language, prescription.endDate),
          })}{' '}
          · {t('prescriptions.medicines', { count: prescription.medicineCount })}
        </span>
        <span className="dose-meta">
          {t('prescriptions.doctor', { name: prescription.doctorInCharge.fullName })}
        </span>
      </Link>
    </li>
  );
}

/** The patient's prescriptions, newest first (deactivated ones never reach the app: spec §4). */
export function PrescriptionsPage() {
  const { t } = useTranslation('appCarePlan');
  const list = useInfiniteQuery(prescriptionsQuery());
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="care-page">
      <h1>{t('title')}</h1>
      <MedicinesNav />
      <section className="card" aria-labelledby="prescriptions-heading">
        <h2 id="prescriptions-heading">{t('prescriptions.heading')}</h2>
        {list.isPending ? <p role="status">{t('patient:loading')}</p> : null}
        {list.isError ? <Alert>{errorMessage(list.error)}</Alert> : null}
        {list.data !== undefined && items.length === 0 ? (
          <p className="hint">{t('prescriptions.empty')}</p>
        ) : null}
        {items.length > 0 ? (
          <ul className="prescription-list">
            {items.map((prescription) => (
              <PrescriptionItem key={prescription.id} prescription={prescription} />
            ))}
          </ul>
        ) : null}
        {list.hasNextPage ? (
          <button
            type="button"
            className="load-more"
            disabled={list.isFetchingNextPage}
            onClick={() => {
              void list.fetchNextPage();
            }}
          >
            {t('prescriptions.more')}
          </button>
        ) : null}
      </section>
    </div>
  );
}

function scheduleText(
  t: (key: string, options?: Record<string, unknown>) => string,
  medicine: Medicine,
): string {
  const { schedule } = medicine;
  if (schedule === null) return t('schedule.onDemand');
  const times = schedule.times.map((time) => `${time.time} (${time.label})`).join(', ');
  const { repeat } = schedule;
  switch (repeat.kind) {
    case 'WEEKDAYS':
      return repeat.weekdays.length === 7
        ? t('schedule.daily', { times })
        : t('schedule.weekdays', {
            times,
            days: repeat.weekdays.map((day) => t(`weekday.${String(day)}`)).join(', '),
          });
    case 'MONTH_DAYS':
      return t('schedule.monthDays', { times, days: repeat.days });
    case 'HOUR_CYCLE':
      return t('schedule.hourCycle', { times, count: repeat.everyHours });
    case 'DAY_CYCLE':
      return t('schedule.dayCycle', { times, active: repeat.activeDays, inactive: repeat.inactiveDays });
    case 'EVERY_N_DAYS':
      return t('schedule.everyDays', { times, count: repeat.everyDays });
  }
}

/** One prescription: the doctor's note, and each medicine with its dose, timing and reminder times. */
export function PrescriptionDetailPage() {
  const { t, i18n } = useTranslation('appCarePlan');
  const { id = '' } = useParams();
  const detail = useQuery(prescriptionQuery(id));
  const prescription = detail.data;
  return (
    <div className="care-page">
      <p className="back">
        <Link to="/medicines/prescriptions">{t('prescriptions.back')}</Link>
      </p>
      {detail.isPending ? <p role="status">{t('patient:loading')}</p> : null}
      {detail.isError ? <Alert>{errorMessage(detail.error)}</Alert> : null}
      {prescription === undefined ? null : (
        <>
          <h1>{prescription.name}</h1>
          <section className="card">
            <dl className="care-facts">
              <dt>{t('detail.state')}</dt>
              <dd>{t(`prescriptionState.${prescription.state}`)}</dd>
              <dt>{t('detail.period')}</dt>
              <dd>
                {t('prescriptions.period', {
                  start: dateText(i18n.language, prescription.startDate),
                  end: dateText(i18n.language, prescription.endDate),
                })}
              </dd>
              <dt>{t('detail.doctor')}</dt>
              <dd>{prescription.doctorInCharge.fullName}</dd>
              {prescription.rxNumber === null ? null : (
                <>
                  <dt>{t('detail.rxNumber')}</dt>
                  <dd>{prescription.rxNumber}</dd>
                </>
              )}
              {prescription.diagnosis === null ? null : (
                <>
                  <dt>{t('detail.diagnosis')}</dt>
                  <dd>{prescription.diagnosis}</dd>
                </>
              )}
              {prescription.noteForPatient === null ? null : (
                <>
                  <dt>{t('detail.note')}</dt>
                  <dd className="care-note">{prescription.noteForPatient}</dd>
                </>
              )}
            </dl>
          </section>
          <section className="card" aria-labelledby="medicines-heading">
            <h2 id="medicines-heading">{t('detail.medicines')}</h2>
            <ul className="dose-list">
              {prescription.medicines.map((medicine) => (
                <li key={medicine.id} className="dose">
                  <p className="dose-name">
                    {medicine.color === null ? null : (
                      <span
                        className="pill-colour"
                        style={{ background: medicine.color }}
                        aria-hidden="true"
                      />
                    )}
                    {medicine.name}
                    {medicine.strength === null ? null : (
                      <span className="dose-strength"> {medicine.strength}</span>
                    )}
                  </p>
                  <p className="dose-meta">
                    <DoseText dose={medicine.dose} unit={medicine.doseUnit} /> ·{' '}
                    {t(`route.${medicine.route}`)} · {t(`meal.${medicine.meal}`)}
                  </p>
                  <p className="dose-meta">{scheduleText(t, medicine)}</p>
                  {medicine.instructions === null ? null : (
                    <p className="dose-meta">{medicine.instructions}</p>
                  )}
                  {medicine.sideEffects === null ? null : (
                    <p className="dose-meta">{t('detail.sideEffects', { text: medicine.sideEffects })}</p>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}
