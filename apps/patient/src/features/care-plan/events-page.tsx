import { EVENT_ICONS, type EventInput, type PatientEvent } from '@rpm/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import { CARE_PLAN_KEY, eventsQuery, removeEvent, saveEvent } from './care-plan-api';
import { emptyDraft, eventInputOf, type Draft } from './event-draft';
import { MedicinesNav } from './medicines-page';

function EventForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('appCarePlan');
  const queryClient = useQueryClient();
  const iconId = useId();
  const noteId = useId();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [problems, setProblems] = useState<Partial<Record<keyof Draft, string>>>({});
  const save = useMutation({
    mutationFn: (input: EventInput) => saveEvent(null, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: CARE_PLAN_KEY });
      onDone();
    },
  });
  const set = (field: keyof Draft) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const result = eventInputOf(draft);
    setProblems(result.problems ?? {});
    if (result.input !== null) save.mutate(result.input);
  };
  const problemOf = (field: keyof Draft) => (problems[field] === undefined ? undefined : t(problems[field]));
  return (
    <form className="card event-form" onSubmit={submit} noValidate aria-labelledby="event-form-heading">
      <h2 id="event-form-heading">{t('events.new')}</h2>
      <TextField
        label={t('events.fields.arrivalAt')}
        type="datetime-local"
        value={draft.arrivalAt}
        required
        error={problemOf('arrivalAt')}
        onChange={(event) => {
          set('arrivalAt')(event.target.value);
        }}
      />
      <TextField
        label={t('events.fields.label')}
        value={draft.label}
        maxLength={120}
        required
        error={problemOf('label')}
        onChange={(event) => {
          set('label')(event.target.value);
        }}
      />
      <div className="field">
        <label htmlFor={iconId}>{t('events.fields.icon')}</label>
        <select
          id={iconId}
          value={draft.icon}
          aria-invalid={problems.icon === undefined ? undefined : true}
          aria-describedby={problems.icon === undefined ? undefined : `${iconId}-error`}
          onChange={(event) => {
            set('icon')(event.target.value);
          }}
        >
          <option value="">{t('events.chooseIcon')}</option>
          {EVENT_ICONS.map((icon) => (
            <option key={icon} value={icon}>
              {t(`events.icon.${icon}`)}
            </option>
          ))}
        </select>
        {problems.icon === undefined ? null : (
          <p id={`${iconId}-error`} className="field-error">
            {t(problems.icon)}
          </p>
        )}
      </div>
      <TextField
        label={t('events.fields.location')}
        value={draft.location}
        maxLength={200}
        onChange={(event) => {
          set('location')(event.target.value);
        }}
      />
      <TextField
        label={t('events.fields.organizer')}
        value={draft.organizer}
        maxLength={120}
        onChange={(event) => {
          set('organizer')(event.target.value);
        }}
      />
      <div className="field">
        <label htmlFor={noteId}>{t('events.fields.note')}</label>
        <textarea
          id={noteId}
          value={draft.note}
          maxLength={1000}
          onChange={(event) => {
            set('note')(event.target.value);
          }}
        />
      </div>
      {save.isError ? <Alert>{errorMessage(save.error)}</Alert> : null}
      <div className="dose-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('events.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('events.cancelForm')}
        </button>
      </div>
    </form>
  );
}

function EventItem({ event, readOnly }: { event: PatientEvent; readOnly: boolean }) {
  const { t, i18n } = useTranslation('appCarePlan');
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: CARE_PLAN_KEY });
  const change = useMutation({
    mutationFn: (status: PatientEvent['status']) =>
      saveEvent(event.id, {
        arrivalAt: event.arrivalAt,
        label: event.label,
        icon: event.icon,
        note: event.note ?? undefined,
        location: event.location ?? undefined,
        organizer: event.organizer ?? undefined,
        status,
      }),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: () => removeEvent(event.id), onSuccess: done });
  const when = new Intl.DateTimeFormat(i18n.language, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(event.arrivalAt));
  return (
    <li className="dose" data-status={event.status}>
      <div className="dose-head">
        <span className="dose-time">{when}</span>
        <span className={`badge event-${event.status.toLowerCase()}`}>
          {t(`events.status.${event.status}`)}
        </span>
      </div>
      <p className="dose-name">{event.label}</p>
      <p className="dose-meta">
        {[t(`events.icon.${event.icon}`), event.location, event.organizer].filter(Boolean).join(' · ')}
      </p>
      {event.note === null ? null : <p className="dose-meta care-note">{event.note}</p>}
      {change.isError ? <Alert>{errorMessage(change.error)}</Alert> : null}
      {remove.isError ? <Alert>{errorMessage(remove.error)}</Alert> : null}
      {readOnly ? null : (
        <div className="dose-actions">
          {event.status === 'PLANNED' ? (
            <>
              <button
                type="button"
                disabled={change.isPending}
                onClick={() => {
                  change.mutate('DONE');
                }}
              >
                {t('events.markDone')}
              </button>
              <button
                type="button"
                disabled={change.isPending}
                onClick={() => {
                  change.mutate('CANCELED');
                }}
              >
                {t('events.markCanceled')}
              </button>
            </>
          ) : null}
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => {
              remove.mutate();
            }}
          >
            {t('events.delete')}
          </button>
        </div>
      )}
    </li>
  );
}

/** My Events (spec §2 patient app): upcoming or past, add one, mark done or canceled, delete. */
export function EventsPage() {
  const { t } = useTranslation('appCarePlan');
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  const [isAdding, setAdding] = useState(false);
  const viewOnly = useViewOnlyProfile();
  const list = useInfiniteQuery(eventsQuery(when));
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="care-page">
      <h1>{t('events.heading')}</h1>
      <MedicinesNav />
      {viewOnly === null ? null : <ViewOnlyNotice profile={viewOnly} />}
      {viewOnly === null && !isAdding ? (
        <button
          type="button"
          className="primary add-event"
          onClick={() => {
            setAdding(true);
          }}
        >
          {t('events.add')}
        </button>
      ) : null}
      {isAdding ? (
        <EventForm
          onDone={() => {
            setAdding(false);
          }}
        />
      ) : null}
      <section className="card" aria-labelledby="events-heading">
        <h2 id="events-heading">{t(`events.when.${when}`)}</h2>
        <div className="care-nav" role="group" aria-label={t('events.show')}>
          {(['upcoming', 'past'] as const).map((value) => (
            <button
              key={value}
              type="button"
              className="link-button"
              aria-pressed={when === value}
              onClick={() => {
                setWhen(value);
              }}
            >
              {t(`events.when.${value}`)}
            </button>
          ))}
        </div>
        {list.isPending ? <p role="status">{t('patient:loading')}</p> : null}
        {list.isError ? <Alert>{errorMessage(list.error)}</Alert> : null}
        {list.data !== undefined && items.length === 0 ? (
          <p className="hint">{t(`events.empty.${when}`)}</p>
        ) : null}
        {items.length > 0 ? (
          <ul className="dose-list">
            {items.map((event) => (
              <EventItem key={event.id} event={event} readOnly={viewOnly !== null} />
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
