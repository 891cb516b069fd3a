import { appCareRequestCreateSchema, type AppDoctorDetail, type CareRelation } from '@rpm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { dateText, RatingStars, useDoctorLabels } from './doctor-labels';
import { decideRequest, DOCTORS_KEY, doctorQuery, sendRequest } from './doctors-api';
import { DoctorsNav } from './doctors-nav';
import { useViewOnlyProfile, ViewOnlyNotice } from '../profiles/view-only';
import { BookAppointmentCard } from '../appointments/book-appointment-card';
import { DoctorReviewsCard } from '../reviews/review-cards';

const MESSAGE_MAX = 500;

function Facts({ doctor }: { doctor: AppDoctorDetail }) {
  const { t, i18n } = useTranslation('appDoctors');
  const rows: [string, string][] = [];
  if (doctor.degreeCode !== null) rows.push([t('detail.degree'), t(`doctors:degree.${String(doctor.degreeCode)}`)]);
  if (doctor.yearsOfExperience !== null)
    rows.push([t('detail.experience'), new Intl.NumberFormat(i18n.language).format(doctor.yearsOfExperience)]);
  if (doctor.placeOfEducation !== '') rows.push([t('detail.education'), doctor.placeOfEducation]);
  if (doctor.centerName !== null) rows.push([t('detail.center'), doctor.centerName]);
  if (doctor.officeAddress !== '') rows.push([t('detail.office'), doctor.officeAddress]);
  if (doctor.officePhone !== '') rows.push([t('detail.officePhone'), doctor.officePhone]);
  if (doctor.officeEmail !== '') rows.push([t('detail.officeEmail'), doctor.officeEmail]);
  if (doctor.examinationCost !== null)
    rows.push([t('detail.cost'), new Intl.NumberFormat(i18n.language).format(doctor.examinationCost)]);
  return (
    <dl className="doctor-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Where the caller stands with the doctor: on the care team, a waiting request, or a new request. */
function RequestCard({ doctor }: { doctor: AppDoctorDetail }) {
  const { t } = useTranslation('appDoctors');
  const queryClient = useQueryClient();
  const viewOnly = useViewOnlyProfile();
  const messageId = useId();
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: DOCTORS_KEY });
  const send = useMutation({
    mutationFn: (relation: CareRelation) => {
      const parsed = appCareRequestCreateSchema.safeParse({ doctorId: doctor.id, relation, message });
      if (!parsed.success) throw new Error('invalid message');
      return sendRequest(parsed.data);
    },
    onSuccess: async () => {
      setMessage('');
      await refresh();
    },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => decideRequest(id, 'cancel'),
    onSuccess: refresh,
  });
  const ask = (relation: CareRelation) => {
    const isTooLong = message.trim().length > MESSAGE_MAX;
    setProblem(isTooLong ? t('detail.messageTooLong', { max: MESSAGE_MAX }) : undefined);
    if (!isTooLong) send.mutate(relation);
  };

  if (viewOnly !== null) {
    // A followed patient's doctors are theirs to choose: the follower only reads the profile.
    return <ViewOnlyNotice profile={viewOnly} />;
  }
  if (doctor.careTeamRelation !== null) {
    return (
      <section className="card" aria-labelledby="doctor-request-heading">
        <h2 id="doctor-request-heading">{t('detail.yourDoctor')}</h2>
        <p>{t(`detail.onTeam.${doctor.careTeamRelation}`)}</p>
      </section>
    );
  }
  const waiting = doctor.waitingRequest;
  if (waiting !== null) {
    return (
      <section className="card" aria-labelledby="doctor-request-heading">
        <h2 id="doctor-request-heading">{t('detail.requestTitle')}</h2>
        <p role="status">
          <span className="badge badge-waiting">{t('status.WAITING')}</span>{' '}
          {t(`detail.waiting.${waiting.relation}`)}
        </p>
        {cancel.isError ? <Alert>{errorMessage(cancel.error)}</Alert> : null}
        {waiting.canCancel ? (
          <div className="doctor-actions">
            <button
              type="button"
              className="danger"
              disabled={cancel.isPending}
              onClick={() => {
                cancel.mutate(waiting.id);
              }}
            >
              {t('requests.cancel')}
            </button>
          </div>
        ) : (
          <p className="hint">{t('detail.filedForYou')}</p>
        )}
      </section>
    );
  }
  return (
    <section className="card request-form" aria-labelledby="doctor-request-heading">
      <h2 id="doctor-request-heading">{t('detail.requestTitle')}</h2>
      {send.isSuccess ? <Alert tone="info">{t('detail.sent')}</Alert> : null}
      {doctor.licenseState === 'EXPIRED' ? <p className="hint">{t('detail.licenseExpiredNote')}</p> : null}
      <div className="field">
        <label htmlFor={messageId}>{t('detail.message')}</label>
        <textarea
          id={messageId}
          value={message}
          maxLength={MESSAGE_MAX}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${messageId}-error` : undefined}
          onChange={(event) => {
            setMessage(event.target.value);
          }}
        />
        {problem ? (
          <p id={`${messageId}-error`} className="field-error">
            {problem}
          </p>
        ) : null}
      </div>
      {send.isError ? <Alert>{errorMessage(send.error)}</Alert> : null}
      <div className="doctor-actions">
        <button
          type="button"
          className="primary"
          disabled={send.isPending}
          onClick={() => {
            ask('FAMILY');
          }}
        >
          {t('detail.askFamily')}
        </button>
        <button
          type="button"
          disabled={send.isPending}
          onClick={() => {
            ask('SPECIALIST');
          }}
        >
          {t('detail.askSpecialist')}
        </button>
      </div>
    </section>
  );
}

/** /doctors/:id — a doctor's profile, the request to them, and booking one of their free times. */
export function DoctorDetailPage() {
  const { t, i18n } = useTranslation('appDoctors');
  const isReady = useDoctorLabels();
  const { id = '' } = useParams();
  const doctor = useQuery(doctorQuery(id));
  const data = doctor.data;
  return (
    <div className="doctors-page">
      <p className="back">
        <Link to="/doctors">{t('back')}</Link>
      </p>
      {doctor.isPending || !isReady ? <p role="status">{t('loading')}</p> : null}
      {doctor.isError ? <Alert>{errorMessage(doctor.error)}</Alert> : null}
      {data && isReady ? (
        <>
          <h1>{data.fullName}</h1>
          <DoctorsNav />
          <section className="card" aria-label={t('detail.profile')}>
            <p className="doctor-meta">{t(`doctors:kind.${data.kind}`)}</p>
            <RatingStars average={data.ratingAverage} count={data.ratingCount} />
            {data.specialties.length > 0 ? (
              <ul className="specialty-list" aria-label={t('detail.specialties')}>
                {data.specialties.map((code) => (
                  <li key={code}>{t(`doctors:specialty.${code}`)}</li>
                ))}
              </ul>
            ) : null}
            <Facts doctor={data} />
          </section>
          {data.introduction !== '' ? (
            <section className="card" aria-labelledby="doctor-intro-heading">
              <h2 id="doctor-intro-heading">{t('detail.introduction')}</h2>
              <p className="doctor-intro">{data.introduction}</p>
            </section>
          ) : null}
          <section className="card" aria-labelledby="doctor-licenses-heading">
            <h2 id="doctor-licenses-heading">{t('detail.licenses')}</h2>
            {data.licenses.length === 0 ? <p className="hint">{t('detail.noLicenses')}</p> : null}
            <ul className="license-list">
              {data.licenses.map((license) => (
                <li key={`${license.name}-${license.expiresOn}`}>
                  <span>
                    {license.name}
                    <span className="doctor-meta">
                      {t('detail.validUntil', { date: dateText(license.expiresOn, i18n.language) })}
                    </span>
                  </span>
                  <span className={`badge ${license.expired ? 'badge-expired' : 'badge-valid'}`}>
                    {license.expired ? t('detail.expired') : t('detail.valid')}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          <DoctorReviewsCard doctorId={data.id} />
          <RequestCard doctor={data} />
          <BookAppointmentCard doctorId={data.id} />
        </>
      ) : null}
    </div>
  );
}
