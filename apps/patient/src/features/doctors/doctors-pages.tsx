import { DOCTOR_KINDS, SPECIALTY_CODES, type AppDoctorSummary, type DoctorKind, type SpecialtyCode } from '@rpm/contracts';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorMessage } from '../../ui/error-message';
import { Alert, TextField } from '../../ui/kit';
import { RatingStars, useDoctorLabels } from './doctor-labels';
import { careTeamQuery, doctorSearchQuery, type DoctorFilters } from './doctors-api';
import { DoctorsNav } from './doctors-nav';

/** One doctor in a list: name, role, specialties, rating and experience; opens the detail. */
export function DoctorListItem({ doctor, note }: { doctor: AppDoctorSummary; note?: string }) {
  const { t } = useTranslation('appDoctors');
  const specialties = doctor.specialties.map((code) => t(`doctors:specialty.${code}`)).join(', ');
  return (
    <li>
      <Link to={`/doctors/${doctor.id}`}>
        <span className="doctor-name">{doctor.fullName}</span>
        <span className="doctor-meta">
          {note ?? t(`doctors:kind.${doctor.kind}`)}
          {doctor.centerName !== null ? ` · ${doctor.centerName}` : ''}
        </span>
        {specialties !== '' ? <span className="doctor-meta">{specialties}</span> : null}
        <span className="doctor-meta">
          <RatingStars average={doctor.ratingAverage} count={doctor.ratingCount} />
          {doctor.yearsOfExperience !== null ? ` · ${t('experience', { years: doctor.yearsOfExperience })}` : ''}
        </span>
      </Link>
    </li>
  );
}

function SelectField<T extends string>(props: {
  label: string;
  value: T | '';
  anyLabel: string;
  options: { value: T; label: string }[];
  onChange: (value: T | '') => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => {
          props.onChange(event.target.value as T | '');
        }}
      >
        <option value="">{props.anyLabel}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** /doctors — search the tenant's doctors by name, specialty and role; a page at a time. */
export function DoctorSearchPage() {
  const { t, i18n } = useTranslation('appDoctors');
  const isReady = useDoctorLabels();
  const [typed, setTyped] = useState('');
  const [filters, setFilters] = useState<DoctorFilters>({ search: '', specialty: '', kind: '' });
  const results = useInfiniteQuery(doctorSearchQuery(filters));
  const specialties = SPECIALTY_CODES.map((code) => ({ value: code, label: t(`doctors:specialty.${code}`) })).sort(
    (left, right) => left.label.localeCompare(right.label, i18n.language),
  );
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setFilters((current) => ({ ...current, search: typed }));
  };
  const doctors = results.data?.pages.flatMap((page) => page.items) ?? [];
  const total = results.data?.pages[0]?.total ?? 0;
  return (
    <div className="doctors-page">
      <h1>{t('search.title')}</h1>
      <DoctorsNav />
      <section className="card" aria-label={t('search.filters')}>
        <form className="doctor-filters" role="search" onSubmit={submit}>
          <div className="doctor-search-row">
            <TextField
              label={t('search.name')}
              type="search"
              value={typed}
              maxLength={80}
              onChange={(event) => {
                setTyped(event.target.value);
              }}
            />
            <button type="submit">{t('search.submit')}</button>
          </div>
          {isReady ? (
            <>
              <SelectField<SpecialtyCode>
                label={t('search.specialty')}
                anyLabel={t('search.anySpecialty')}
                value={filters.specialty}
                options={specialties}
                onChange={(specialty) => {
                  setFilters((current) => ({ ...current, search: typed, specialty }));
                }}
              />
              <SelectField<DoctorKind>
                label={t('search.kind')}
                anyLabel={t('search.anyKind')}
                value={filters.kind}
                options={DOCTOR_KINDS.map((kind) => ({ value: kind, label: t(`doctors:kind.${kind}`) }))}
                onChange={(kind) => {
                  setFilters((current) => ({ ...current, search: typed, kind }));
                }}
              />
            </>
          ) : null}
        </form>
      </section>
      <section className="card" aria-labelledby="doctor-results-heading" aria-busy={results.isFetching}>
        <h2 id="doctor-results-heading">{t('search.results')}</h2>
        {results.isPending || !isReady ? <p role="status">{t('loading')}</p> : null}
        {results.isError ? (
          <>
            <Alert>{errorMessage(results.error)}</Alert>
            <button type="button" onClick={() => void results.refetch()}>
              {t('retry')}
            </button>
          </>
        ) : null}
        {results.isSuccess && isReady ? (
          <>
            <p className="hint" role="status">
              {total === 0 ? t('search.empty') : t('search.count', { shown: doctors.length, total })}
            </p>
            <ul className="doctor-list">
              {doctors.map((doctor) => (
                <DoctorListItem key={doctor.id} doctor={doctor} />
              ))}
            </ul>
            {results.hasNextPage ? (
              <button
                type="button"
                className="load-more"
                disabled={results.isFetchingNextPage}
                onClick={() => void results.fetchNextPage()}
              >
                {results.isFetchingNextPage ? t('loading') : t('search.more')}
              </button>
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}

/** /doctors/mine — the family doctor first, then the specialists. */
export function CareTeamPage() {
  const { t } = useTranslation('appDoctors');
  const isReady = useDoctorLabels();
  const team = useQuery(careTeamQuery());
  return (
    <div className="doctors-page">
      <h1>{t('mine.title')}</h1>
      <DoctorsNav />
      <section className="card">
        {team.isPending || !isReady ? <p role="status">{t('loading')}</p> : null}
        {team.isError ? <Alert>{errorMessage(team.error)}</Alert> : null}
        {team.data?.length === 0 ? (
          <p className="hint">
            {t('mine.empty')} <Link to="/doctors">{t('mine.find')}</Link>
          </p>
        ) : null}
        {isReady ? (
          <ul className="doctor-list">
            {team.data?.map((entry) => (
              <DoctorListItem key={entry.doctor.id} doctor={entry.doctor} note={t(`relation.${entry.relation}`)} />
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
