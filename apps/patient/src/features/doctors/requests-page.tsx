import { careRequestRejectSchema, type CareRequest } from '@rpm/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { dateText } from './doctor-labels';
import { DoctorsNav } from './doctors-nav';
import { useViewOnlyProfile } from '../profiles/view-only';
import { decideRequest, DOCTORS_KEY, requestsQuery, type RequestBox } from './doctors-api';

function RejectForm({ request, onDone }: { request: CareRequest; onDone: () => void }) {
  const { t } = useTranslation('appDoctors');
  const queryClient = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const reject = useMutation({
    mutationFn: (text: string) => decideRequest(request.id, 'reject', text),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: DOCTORS_KEY });
      onDone();
    },
  });
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    const parsed = careRequestRejectSchema.safeParse({ reason });
    setProblem(parsed.success ? undefined : t('requests.reasonRequired'));
    if (parsed.success) reject.mutate(parsed.data.reason);
  };
  return (
    <form className="reject-form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor={id}>{t('requests.reason')}</label>
        <textarea
          id={id}
          value={reason}
          maxLength={500}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          onChange={(event) => {
            setReason(event.target.value);
          }}
        />
        {problem ? (
          <p id={`${id}-error`} className="field-error">
            {problem}
          </p>
        ) : null}
      </div>
      {reject.isError ? <Alert>{errorMessage(reject.error)}</Alert> : null}
      <div className="request-actions">
        <button type="submit" className="danger" disabled={reject.isPending}>
          {t('requests.confirmReject')}
        </button>
        <button type="button" onClick={onDone}>
          {t('requests.keep')}
        </button>
      </div>
    </form>
  );
}

function RequestItem({ request, box }: { request: CareRequest; box: RequestBox }) {
  const { t, i18n } = useTranslation('appDoctors');
  const queryClient = useQueryClient();
  const [isRejecting, setRejecting] = useState(false);
  const decide = useMutation({
    mutationFn: (action: 'approve' | 'cancel') => decideRequest(request.id, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DOCTORS_KEY }),
  });
  // A followed patient's requests are theirs to answer: the follower only reads them.
  const isViewOnly = useViewOnlyProfile() !== null;
  const isWaiting = request.status === 'WAITING' && !isViewOnly;
  return (
    <li>
      <div className="request-head">
        <span>
          <Link className="doctor-name" to={`/doctors/${request.doctor.id}`}>
            {request.doctor.fullName}
          </Link>
          <span className="doctor-meta">
            {t(`relation.${request.relation}`)} · {dateText(request.createdAt, i18n.language)}
          </span>
        </span>
        <span className={`badge badge-${request.status.toLowerCase()}`}>{t(`status.${request.status}`)}</span>
      </div>
      {request.message !== '' ? <p className="doctor-intro">{request.message}</p> : null}
      {request.rejectReason !== null ? (
        <p className="hint">{t('requests.rejectedBecause', { reason: request.rejectReason })}</p>
      ) : null}
      {decide.isError ? <Alert>{errorMessage(decide.error)}</Alert> : null}
      {isWaiting && box === 'sent' ? (
        <div className="request-actions">
          <button
            type="button"
            className="danger"
            disabled={decide.isPending}
            aria-label={t('requests.cancelTo', { name: request.doctor.fullName })}
            onClick={() => {
              decide.mutate('cancel');
            }}
          >
            {t('requests.cancel')}
          </button>
        </div>
      ) : null}
      {isWaiting && box === 'received' && !isRejecting ? (
        <div className="request-actions">
          <button
            type="button"
            className="primary"
            disabled={decide.isPending}
            aria-label={t('requests.approveFrom', { name: request.doctor.fullName })}
            onClick={() => {
              decide.mutate('approve');
            }}
          >
            {t('requests.approve')}
          </button>
          <button
            type="button"
            className="danger"
            aria-label={t('requests.rejectFrom', { name: request.doctor.fullName })}
            onClick={() => {
              setRejecting(true);
            }}
          >
            {t('requests.reject')}
          </button>
        </div>
      ) : null}
      {isWaiting && box === 'received' && isRejecting ? (
        <RejectForm
          request={request}
          onDone={() => {
            setRejecting(false);
          }}
        />
      ) : null}
    </li>
  );
}

/** /doctors/requests — the requests sent to doctors, and doctors' requests to the patient. */
export function RequestsPage() {
  const { t } = useTranslation('appDoctors');
  const [box, setBox] = useState<RequestBox>('sent');
  const requests = useInfiniteQuery(requestsQuery(box));
  const items = requests.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="doctors-page">
      <h1>{t('requests.title')}</h1>
      <DoctorsNav />
      <div className="segmented" role="group" aria-label={t('requests.boxes')}>
        {(['sent', 'received'] as const).map((which) => (
          <button
            key={which}
            type="button"
            aria-pressed={box === which}
            onClick={() => {
              setBox(which);
            }}
          >
            {t(`requests.${which}`)}
          </button>
        ))}
      </div>
      <section className="card" aria-label={t(`requests.${box}`)} aria-busy={requests.isFetching}>
        {requests.isPending ? <p role="status">{t('loading')}</p> : null}
        {requests.isError ? <Alert>{errorMessage(requests.error)}</Alert> : null}
        {requests.isSuccess && items.length === 0 ? <p className="hint">{t(`requests.empty.${box}`)}</p> : null}
        <ul className="request-list">
          {items.map((request) => (
            <RequestItem key={request.id} request={request} box={box} />
          ))}
        </ul>
        {requests.hasNextPage ? (
          <button
            type="button"
            className="load-more"
            disabled={requests.isFetchingNextPage}
            onClick={() => void requests.fetchNextPage()}
          >
            {requests.isFetchingNextPage ? t('loading') : t('search.more')}
          </button>
        ) : null}
      </section>
    </div>
  );
}
