import { myAppointmentInputSchema, type AppointmentSlot } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { localDay } from '../care-plan/day';
import { useViewOnlyProfile } from '../profiles/view-only';
import { isUpgradeRequired, UpgradeNotice, useFeature, useRefreshPackage } from '../subscription/upgrade-notice';
import { APPOINTMENTS_KEY, appointmentQuery, bookAppointment, slotsQuery } from './appointments-api';
import { timeText } from './format';

const REASON_MAX = 500;
const NOTE_MAX = 1000;
const PLACES = ['CLINIC', 'ONLINE'] as const;
type Place = (typeof PLACES)[number];

interface Problems {
  date?: string;
  slot?: string;
  reason?: string;
  note?: string;
}

/** The slots a patient may take: free at the server and not begun on the phone's clock either. */
function bookable(slots: readonly AppointmentSlot[], nowMs: number): AppointmentSlot[] {
  return slots.filter((slot) => slot.free && Date.parse(slot.startAt) > nowMs);
}

/** The free times of the doctor on the chosen day, one button each (the chosen one pressed). */
function SlotPicker({
  doctorId,
  day,
  chosen,
  problem,
  onChoose,
}: {
  doctorId: string;
  day: string;
  chosen: string | null;
  problem: string | undefined;
  onChoose: (startAt: string) => void;
}) {
  const { t, i18n } = useTranslation('appAppointments');
  const id = useId();
  const slots = useQuery(slotsQuery(doctorId, day));
  const free = bookable(slots.data ?? [], Date.now());
  return (
    <div className="field" role="group" aria-labelledby={`${id}-label`} aria-busy={slots.isFetching}>
      <span id={`${id}-label`} className="field-label">
        {t('book.slots')}
      </span>
      {slots.isPending ? <p role="status" className="hint">{t('book.slotsLoading')}</p> : null}
      {slots.isError ? (
        <div className="appointments-error">
          <Alert>{errorMessage(slots.error)}</Alert>
          <button
            type="button"
            onClick={() => {
              void slots.refetch();
            }}
          >
            {t('retry')}
          </button>
        </div>
      ) : null}
      {slots.isSuccess && free.length === 0 ? (
        <p className="appointments-empty" role="status">
          {t('book.noSlots')}
        </p>
      ) : null}
      {free.length > 0 ? (
        <ul className="slot-list">
          {free.map((slot) => (
            <li key={slot.startAt}>
              <button
                type="button"
                className="slot"
                data-testid="slot"
                aria-pressed={chosen === slot.startAt}
                aria-label={t('book.slotLabel', {
                  start: timeText(i18n.language, slot.startAt),
                  end: timeText(i18n.language, slot.endAt),
                })}
                onClick={() => {
                  onChoose(slot.startAt);
                }}
              >
                {timeText(i18n.language, slot.startAt)}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {problem ? (
        <p id={`${id}-error`} className="field-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Booking a free slot of the doctor for the active profile (spec §2 patient app: book an
 * appointment): a day (today or later), one of its free times, the reason, a note and the place;
 * the new appointment opens once booked. Not offered on a followed patient's profile (read only).
 * An online (video) visit needs the Basic package: without it the option is off, with a notice
 * leading to My package, and the server's refusal (package.upgradeRequired) shows the same notice.
 */
export function BookAppointmentCard({ doctorId }: { doctorId: string }) {
  const { t } = useTranslation('appAppointments');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewOnly = useViewOnlyProfile();
  const id = useId();
  const today = localDay(new Date());
  const [day, setDay] = useState(today);
  const [startAt, setStartAt] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const [place, setPlace] = useState<Place>('CLINIC');
  const [problems, setProblems] = useState<Problems>({});
  const video = useFeature('VIDEO_CONSULTATION');
  const refreshPackage = useRefreshPackage();
  const isDayValid = /^\d{4}-\d{2}-\d{2}$/.test(day) && day >= today;
  const book = useMutation({
    mutationFn: bookAppointment,
    onSuccess: async (saved) => {
      queryClient.setQueryData(appointmentQuery(saved.id).queryKey, saved);
      await queryClient.invalidateQueries({ queryKey: APPOINTMENTS_KEY });
      void navigate(`/appointments/${saved.id}`);
    },
    onError: async (error) => {
      // The package read earlier gave video visits, the server says it does not (any more).
      if (isUpgradeRequired(error)) {
        setPlace('CLINIC');
        await refreshPackage();
        return;
      }
      // Someone else took the time, or it began: the day's times again, none chosen.
      if (error instanceof ApiError && (error.code === 'appointment.slotTaken' || error.code === 'appointment.notASlot')) {
        setStartAt(null);
        await queryClient.invalidateQueries({ queryKey: slotsQuery(doctorId, day).queryKey });
      }
    },
  });

  if (viewOnly !== null) return null;

  const needsUpgrade = video === 'upgrade' || isUpgradeRequired(book.error);
  // A video visit chosen before the package was known to lack it is not booked: the clinic is.
  const chosenPlace: Place = needsUpgrade && place === 'ONLINE' ? 'CLINIC' : place;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const found: Problems = {};
    if (!isDayValid) found.date = t('book.datePast');
    else if (startAt === null) found.slot = t('book.slotRequired');
    if (reason.trim() === '') found.reason = t('book.reasonRequired');
    else if (reason.trim().length > REASON_MAX) found.reason = t('book.tooLong', { max: REASON_MAX });
    if (note.trim().length > NOTE_MAX) found.note = t('book.tooLong', { max: NOTE_MAX });
    setProblems(found);
    if (Object.keys(found).length > 0 || startAt === null) return;
    const parsed = myAppointmentInputSchema.safeParse({
      doctorId,
      startAt,
      reason: reason.trim(),
      ...(note.trim() === '' ? {} : { note: note.trim() }),
      place: chosenPlace,
    });
    if (!parsed.success) {
      setProblems({ reason: t('book.reasonRequired') });
      return;
    }
    book.mutate(parsed.data);
  };

  const describedBy = (field: keyof Problems, hint?: string) =>
    [hint ?? '', problems[field] ? `${id}-${field}-error` : ''].filter(Boolean).join(' ') || undefined;
  const errorLine = (field: keyof Problems) =>
    problems[field] ? (
      <p id={`${id}-${field}-error`} className="field-error">
        {problems[field]}
      </p>
    ) : null;

  return (
    <section className="card book-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('book.title')}</h2>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-date`}>{t('book.date')}</label>
          <input
            id={`${id}-date`}
            type="date"
            value={day}
            min={today}
            aria-invalid={problems.date ? true : undefined}
            aria-describedby={describedBy('date', `${id}-date-hint`)}
            onChange={(event) => {
              setDay(event.target.value);
              setStartAt(null);
              setProblems(({ date: _date, slot: _slot, ...rest }) => rest);
            }}
          />
          <p id={`${id}-date-hint`} className="hint">
            {t('book.dateHint')}
          </p>
          {errorLine('date')}
        </div>
        {isDayValid ? (
          <SlotPicker
            doctorId={doctorId}
            day={day}
            chosen={startAt}
            problem={problems.slot}
            onChoose={(value) => {
              setStartAt(value);
              setProblems(({ slot: _slot, ...rest }) => rest);
            }}
          />
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-reason`}>{t('book.reason')}</label>
          <textarea
            id={`${id}-reason`}
            value={reason}
            maxLength={REASON_MAX}
            required
            aria-invalid={problems.reason ? true : undefined}
            aria-describedby={describedBy('reason')}
            onChange={(event) => {
              setReason(event.target.value);
              setProblems(({ reason: _reason, ...rest }) => rest);
            }}
          />
          {errorLine('reason')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-note`}>{t('book.note')}</label>
          <textarea
            id={`${id}-note`}
            value={note}
            maxLength={NOTE_MAX}
            aria-invalid={problems.note ? true : undefined}
            aria-describedby={describedBy('note')}
            onChange={(event) => {
              setNote(event.target.value);
              setProblems(({ note: _note, ...rest }) => rest);
            }}
          />
          {errorLine('note')}
        </div>
        <fieldset className="field place-options">
          <legend>{t('book.place')}</legend>
          {PLACES.map((value) => {
            const locked = value === 'ONLINE' && needsUpgrade;
            return (
              <label key={value} className="check">
                <input
                  type="radio"
                  name={`${id}-place`}
                  value={value}
                  checked={chosenPlace === value}
                  disabled={locked}
                  aria-describedby={locked ? `${id}-upgrade` : undefined}
                  onChange={() => {
                    setPlace(value);
                  }}
                />
                {t(`place.${value}`)}
                {locked ? <span className="upgrade-badge">{t('appProfiles:upgrade.badge')}</span> : null}
              </label>
            );
          })}
          {needsUpgrade ? <UpgradeNotice feature="VIDEO_CONSULTATION" id={`${id}-upgrade`} /> : null}
        </fieldset>
        {book.isError && !isUpgradeRequired(book.error) ? <Alert>{errorMessage(book.error)}</Alert> : null}
        <button type="submit" className="primary" disabled={book.isPending}>
          {book.isPending ? t('book.booking') : t('book.submit')}
        </button>
      </form>
    </section>
  );
}
