import { INTAKE_ANSWER_AHEAD_HOURS, type Intake, type ReminderOccurrence } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { RecordsIcon } from '../medical-records/icons';
import { useViewOnlyProfile } from '../profiles/view-only';
import { answerIntake, CARE_PLAN_KEY, intakesQuery, reminderTimesQuery } from './care-plan-api';
import { isAnswerable, localDay, shiftDay } from './day';

/** The care-plan screens' links, and the medical records beside them. */
export function MedicinesNav() {
  const { t } = useTranslation('appCarePlan');
  return (
    <nav className="care-nav" aria-label={t('nav.label')}>
      <NavLink to="/medicines" end>
        {t('nav.today')}
      </NavLink>
      <NavLink to="/medicines/prescriptions">{t('nav.prescriptions')}</NavLink>
      <NavLink to="/events">{t('nav.events')}</NavLink>
      <NavLink to="/records">
        <RecordsIcon />
        {t('records.entry')}
      </NavLink>
    </nav>
  );
}

/** "1 pill", "0.5 teaspoon", "2 drops": the dose with its unit in the app's language. */
export function DoseText({ dose, unit }: { dose: number; unit: string }) {
  const { t, i18n } = useTranslation('appCarePlan');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 }).format(dose);
  return <>{t(`doseUnit.${unit}`, { count: dose, number })}</>;
}

function DoseItem({ intake, readOnly }: { intake: Intake; readOnly: boolean }) {
  const { t } = useTranslation('appCarePlan');
  const queryClient = useQueryClient();
  const answer = useMutation({
    mutationFn: (value: 'TAKEN' | 'SKIPPED') => answerIntake(intake.id, { answer: value }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CARE_PLAN_KEY }),
  });
  const isOpen = intake.state === 'TO_TAKE' || intake.state === 'UNCONFIRMED';
  const canAnswer = isOpen && !readOnly && isAnswerable(intake.dueAt, Date.now(), INTAKE_ANSWER_AHEAD_HOURS);
  return (
    <li className="dose" data-state={intake.state}>
      <div className="dose-head">
        <span className="dose-time">{intake.localTime}</span>
        <span className={`badge dose-badge dose-${intake.appState.toLowerCase()}`}>
          {t(`state.${intake.state}`)}
        </span>
      </div>
      <p className="dose-name">
        {intake.medicineName}
        {intake.strength === null ? null : <span className="dose-strength"> {intake.strength}</span>}
      </p>
      <p className="dose-meta">
        <DoseText dose={intake.dose} unit={intake.doseUnit} /> · {t(`meal.${intake.meal}`)} · {intake.label}
      </p>
      {intake.instructions === null ? null : <p className="dose-meta">{intake.instructions}</p>}
      {answer.isError ? <Alert>{errorMessage(answer.error)}</Alert> : null}
      {canAnswer ? (
        <div className="dose-actions">
          <button
            type="button"
            className="primary"
            disabled={answer.isPending}
            onClick={() => {
              answer.mutate('TAKEN');
            }}
          >
            {t('actions.taken')}
          </button>
          <button
            type="button"
            disabled={answer.isPending}
            onClick={() => {
              answer.mutate('SKIPPED');
            }}
          >
            {t('actions.skip')}
          </button>
        </div>
      ) : isOpen && !readOnly ? (
        <p className="hint">{t('actions.notYet')}</p>
      ) : null}
    </li>
  );
}

function ReminderItem({ occurrence }: { occurrence: ReminderOccurrence }) {
  return (
    <li className="dose">
      <div className="dose-head">
        <span className="dose-time">{occurrence.localTime}</span>
      </div>
      <p className="dose-name">{occurrence.title}</p>
      <p className="dose-meta">
        {occurrence.label}
        {occurrence.note === null ? null : ` · ${occurrence.note}`}
      </p>
    </li>
  );
}

/**
 * The day's medicines (spec §2 patient app: prescriptions and reminders; §4 app states waiting,
 * taken, missed): each dose at its time with its state; a waiting or missed one is marked taken or
 * skipped from 12 hours before it is due. The care team's other reminders of the day follow.
 */
export function MedicinesPage() {
  const { t, i18n } = useTranslation('appCarePlan');
  const today = localDay(new Date());
  const [day, setDay] = useState(today);
  const requested = day === today ? undefined : day;
  const intakes = useQuery(intakesQuery(requested));
  const reminders = useQuery(reminderTimesQuery(requested));
  const readOnly = useViewOnlyProfile() !== null;
  const dayLabel =
    day === today
      ? t('day.today')
      : new Intl.DateTimeFormat(i18n.language, {
          weekday: 'long',
          day: 'numeric',
          month: 'long',
          timeZone: 'UTC',
        }).format(new Date(`${day}T00:00:00Z`));
  const doses = intakes.data ?? [];
  const waiting = doses.filter((intake) => intake.appState === 'WAITING').length;

  return (
    <div className="care-page">
      <h1>{t('title')}</h1>
      <MedicinesNav />
      <div className="day-switcher" role="group" aria-label={t('day.label')}>
        <button
          type="button"
          aria-label={t('day.previous')}
          onClick={() => {
            setDay(shiftDay(day, -1));
          }}
        >
          ‹
        </button>
        <span className="day-label" aria-live="polite">
          {dayLabel}
        </span>
        <button
          type="button"
          aria-label={t('day.next')}
          onClick={() => {
            setDay(shiftDay(day, 1));
          }}
        >
          ›
        </button>
      </div>
      <section className="card" aria-labelledby="doses-heading">
        <h2 id="doses-heading">{t('doses.heading')}</h2>
        {intakes.isPending ? <p role="status">{t('patient:loading')}</p> : null}
        {intakes.isError ? <Alert>{errorMessage(intakes.error)}</Alert> : null}
        {intakes.data !== undefined && doses.length === 0 ? <p className="hint">{t('doses.empty')}</p> : null}
        {waiting > 0 ? <p className="hint">{t('doses.waiting', { count: waiting })}</p> : null}
        {doses.length > 0 ? (
          <ul className="dose-list">
            {doses.map((intake) => (
              <DoseItem key={intake.id} intake={intake} readOnly={readOnly} />
            ))}
          </ul>
        ) : null}
      </section>
      <section className="card" aria-labelledby="reminders-heading">
        <h2 id="reminders-heading">{t('reminders.heading')}</h2>
        {reminders.isError ? <Alert>{errorMessage(reminders.error)}</Alert> : null}
        {reminders.data?.length === 0 ? <p className="hint">{t('reminders.empty')}</p> : null}
        {reminders.data !== undefined && reminders.data.length > 0 ? (
          <ul className="dose-list">
            {reminders.data.map((occurrence) => (
              <ReminderItem key={`${occurrence.reminderId}-${occurrence.at}`} occurrence={occurrence} />
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
