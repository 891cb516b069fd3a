import { myAppointmentCancelSchema, VIDEO_ROOM_OPENS_MINUTES, type MyAppointment } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { useViewOnlyProfile } from '../profiles/view-only';
import { AppointmentReviewCard } from '../reviews/review-cards';
import {
  APPOINTMENTS_KEY,
  appointmentQuery,
  cancelAppointment,
  CANCELLABLE_STATES,
  CLOSED_STATES,
} from './appointments-api';
import { timeText } from './format';
import { StateBadge, WhenText } from './parts';

const CANCEL_REASON_MAX = 500;

/** The reason, then the call: an empty or too long reason is said under the field, nothing sent. */
function CancelForm({ appointment, onDone }: { appointment: MyAppointment; onDone: (cancelled: boolean) => void }) {
  const { t } = useTranslation('appAppointments');
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const cancel = useMutation({
    mutationFn: (text: string) => cancelAppointment(appointment.id, text),
    onSuccess: async (saved) => {
      // Shown cancelled at once (with the notice), the lists fetched again behind it.
      queryClient.setQueryData(appointmentQuery(saved.id).queryKey, saved);
      onDone(true);
      await queryClient.invalidateQueries({ queryKey: APPOINTMENTS_KEY });
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    const tooLong = trimmed.length > CANCEL_REASON_MAX;
    const parsed = myAppointmentCancelSchema.safeParse({ reason: trimmed });
    const message = tooLong
      ? t('cancel.tooLong', { max: CANCEL_REASON_MAX })
      : parsed.success
        ? undefined
        : t('cancel.reasonRequired');
    setProblem(message);
    if (message === undefined && parsed.success) cancel.mutate(parsed.data.reason);
  };
  const described = [`${id}-hint`, problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <form className="cancel-form" aria-labelledby={`${id}-title`} onSubmit={submit} noValidate>
      <h2 id={`${id}-title`}>{t('cancel.title')}</h2>
      <div className="field">
        <label htmlFor={id}>{t('cancel.reason')}</label>
        <textarea
          id={id}
          value={reason}
          maxLength={CANCEL_REASON_MAX}
          required
          aria-invalid={problem ? true : undefined}
          aria-describedby={described}
          onChange={(event) => {
            setReason(event.target.value);
            setProblem(undefined);
          }}
        />
        <p id={`${id}-hint`} className="hint">
          {t('cancel.reasonHint')}
        </p>
        {problem ? (
          <p id={`${id}-error`} className="field-error">
            {problem}
          </p>
        ) : null}
      </div>
      {cancel.isError ? <Alert>{errorMessage(cancel.error)}</Alert> : null}
      <div className="appointment-actions">
        <button type="submit" className="danger" disabled={cancel.isPending}>
          {t('cancel.confirm')}
        </button>
        <button
          type="button"
          onClick={() => {
            onDone(false);
          }}
        >
          {t('cancel.keep')}
        </button>
      </div>
    </form>
  );
}

/**
 * An online appointment's video call: the link to the call page once the room is open (10 minutes
 * before the start to its end, the server says), else when it opens.
 */
function VideoCard({ appointment }: { appointment: MyAppointment }) {
  const { t, i18n } = useTranslation('appAppointments');
  const opensAt = new Date(Date.parse(appointment.startAt) - VIDEO_ROOM_OPENS_MINUTES * 60_000).toISOString();
  return (
    <section className="card" aria-labelledby="appointment-video-heading">
      <h2 id="appointment-video-heading">{t('video.title')}</h2>
      {appointment.videoOpen ? (
        <>
          <p className="hint">{t('video.open')}</p>
          <Link className="button video-join" to={`/appointments/${appointment.id}/video`}>
            {t('video.join')}
          </Link>
        </>
      ) : (
        <>
          <button type="button" className="primary video-join" disabled aria-describedby="appointment-video-hint">
            {t('video.join')}
          </button>
          <p id="appointment-video-hint" className="hint">
            {t('video.opensAt', { time: timeText(i18n.language, opensAt) })}
          </p>
        </>
      )}
    </section>
  );
}

function Facts({ appointment }: { appointment: MyAppointment }) {
  const { t } = useTranslation('appAppointments');
  const rows: [string, string, ReactNode][] = [
    ['when', t('detail.when'), <WhenText key="when" appointment={appointment} />],
    ['doctor', t('detail.doctor'), appointment.doctor.fullName],
    ['place', t('detail.place'), t(`place.${appointment.place}`)],
    ['reason', t('detail.reason'), appointment.reason],
  ];
  if (appointment.note !== null && appointment.note !== '') rows.push(['note', t('detail.note'), appointment.note]);
  if (appointment.appState === 'CANCELED' && appointment.cancelReason !== null)
    rows.push(['cancel-reason', t('detail.cancelReason'), appointment.cancelReason]);
  return (
    <dl className="appointment-facts">
      {rows.map(([key, label, value]) => (
        <div key={key} data-testid={`appointment-${key}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** /appointments/:id — one appointment: every field, the visit's result, cancelling, the video call. */
export function AppointmentDetailPage() {
  const { t } = useTranslation('appAppointments');
  const { id = '' } = useParams();
  const viewOnly = useViewOnlyProfile();
  const [isCancelling, setCancelling] = useState(false);
  const [isCancelled, setCancelled] = useState(false);
  const appointment = useQuery({
    ...appointmentQuery(id),
    // An online appointment still to come: its room opens while the page is shown.
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data?.place !== 'ONLINE') return false;
      return CLOSED_STATES.includes(data.appState) ? false : 30_000;
    },
  });
  const data = appointment.data;
  const canCancel = data !== undefined && viewOnly === null && CANCELLABLE_STATES.includes(data.appState);
  return (
    <div className="appointments-page">
      <p className="back">
        <Link to={data !== undefined && CLOSED_STATES.includes(data.appState) ? '/appointments?when=past' : '/appointments'}>
          {t('back')}
        </Link>
      </p>
      <h1>{t('detail.title')}</h1>
      {appointment.isPending ? <p role="status">{t('loading')}</p> : null}
      {appointment.isError ? (
        <div className="appointments-error">
          <Alert>{errorMessage(appointment.error)}</Alert>
          <button
            type="button"
            onClick={() => {
              void appointment.refetch();
            }}
          >
            {t('retry')}
          </button>
        </div>
      ) : null}
      {data ? (
        <>
          {isCancelled && data.appState === 'CANCELED' ? <Alert tone="info">{t('cancel.done')}</Alert> : null}
          <section className="card" aria-label={t('detail.title')} data-testid="appointment-detail">
            <p className="appointment-status">
              <span className="visually-hidden">{t('detail.status')}: </span>
              <StateBadge state={data.appState} />
            </p>
            {data.appState === 'INVITED' ? <p className="hint">{t('detail.invited')}</p> : null}
            {data.appState === 'UPDATED' ? <p className="hint">{t('detail.updated')}</p> : null}
            <Facts appointment={data} />
          </section>
          {data.appState === 'COMPLETED' && (data.diagnosis !== null || data.advice !== null) ? (
            <section className="card" aria-labelledby="appointment-result-heading">
              <h2 id="appointment-result-heading">{t('detail.result')}</h2>
              <dl className="appointment-facts">
                {data.diagnosis === null ? null : (
                  <div data-testid="appointment-diagnosis">
                    <dt>{t('detail.diagnosis')}</dt>
                    <dd>{data.diagnosis}</dd>
                  </div>
                )}
                {data.advice === null ? null : (
                  <div data-testid="appointment-advice">
                    <dt>{t('detail.advice')}</dt>
                    <dd>{data.advice}</dd>
                  </div>
                )}
              </dl>
            </section>
          ) : null}
          {data.appState === 'COMPLETED' ? <AppointmentReviewCard appointmentId={data.id} /> : null}
          {data.place === 'ONLINE' && !CLOSED_STATES.includes(data.appState) ? <VideoCard appointment={data} /> : null}
          {canCancel ? (
            <section className="card">
              {isCancelling ? (
                <CancelForm
                  appointment={data}
                  onDone={(cancelled) => {
                    setCancelling(false);
                    setCancelled(cancelled);
                  }}
                />
              ) : (
                <div className="appointment-actions">
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      setCancelling(true);
                    }}
                  >
                    {t('cancel.open')}
                  </button>
                </div>
              )}
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
