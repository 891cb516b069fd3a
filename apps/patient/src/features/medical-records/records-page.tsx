import { MEDICAL_RECORD_TYPES, type MedicalRecord, type MedicalRecordType, type PatientFile } from '@rpm/contracts';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveProfile } from '../../api/profile-store';
import { errorMessage } from '../../ui/error-message';
import { Alert } from '../../ui/kit';
import { MedicinesNav } from '../care-plan/medicines-page';
import { dayText, fileKind, sizeText } from './format';
import { DownloadIcon, ImageIcon, PdfIcon } from './icons';
import { fetchRecordFile, recordsQuery } from './records-api';

/** The value once it has stayed the same for `delay` ms (a search asked for when typing pauses). */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(value);
    }, delay);
    return () => {
      clearTimeout(timer);
    };
  }, [value, delay]);
  return settled;
}

/** Saves a fetched file under its name (the object URL let go once the browser has taken it). */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 30_000);
}

function RecordItem({ record, onOpen }: { record: MedicalRecord; onOpen: (opener: HTMLElement) => void }) {
  const { t, i18n } = useTranslation('appCarePlan');
  return (
    <li>
      <button
        type="button"
        className="record-link"
        aria-haspopup="dialog"
        data-testid="record-item"
        onClick={(event) => {
          onOpen(event.currentTarget);
        }}
      >
        <span className="record-head">
          <span className="record-title">{record.title}</span>
          <span className={`badge record-type record-type-${record.type.toLowerCase()}`}>
            {t(`records.types.${record.type}`)}
          </span>
        </span>
        <span className="record-meta">
          {[dayText(i18n.language, record.examinationDate), record.place].filter(Boolean).join(' · ')}
        </span>
        {record.doctor === null ? null : (
          <span className="record-meta">{t('records.doctor', { name: record.doctor })}</span>
        )}
        {record.files.length === 0 ? null : (
          <span className="record-meta">{t('records.files', { count: record.files.length })}</span>
        )}
      </button>
    </li>
  );
}

/** An opened attachment: its bytes as an object URL, let go when the viewer closes. */
interface Opened {
  file: PatientFile;
  url: string;
  /** A PDF the browser opened in a new tab (false: it blocked the tab; the link is there). */
  inNewTab: boolean;
}

/**
 * An attachment in the app: an image shown in the sheet, a PDF opened in a new tab from its object
 * URL (a phone's browser shows no PDF in a frame), each with a link that saves it.
 */
function AttachmentViewer({ opened, onClose }: { opened: Opened; onClose: () => void }) {
  const { t, i18n } = useTranslation('appCarePlan');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { file, url } = opened;
  const kind = fileKind(file);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  return (
    <section className="attachment-viewer" aria-labelledby="attachment-viewer-heading" data-testid="attachment-viewer">
      <button type="button" className="link-button viewer-back" onClick={onClose}>
        {t('records.back')}
      </button>
      <h3 id="attachment-viewer-heading" ref={headingRef} tabIndex={-1} className="viewer-name">
        {file.name}
      </h3>
      <p className="record-meta">
        {t(`records.kind.${kind}`)} · {sizeText(i18n.language, file.size)}
      </p>
      {kind === 'image' ? (
        <img className="viewer-image" src={url} alt={file.name} data-testid="image-viewer" />
      ) : (
        <div className="viewer-pdf">
          <p className="hint" role="status">
            {opened.inNewTab ? t('records.pdfOpened') : t('records.pdfReady')}
          </p>
          <a className="button" href={url} target="_blank" rel="noopener" data-testid="open-pdf">
            <PdfIcon />
            {t('records.openPdf')}
          </a>
        </div>
      )}
      <a className="viewer-download" href={url} download={file.name} data-testid="download-link">
        <DownloadIcon />
        {t('records.download')}
      </a>
    </section>
  );
}

function AttachmentItem({
  file,
  busy,
  onOpen,
  onDownload,
}: {
  file: PatientFile;
  busy: 'open' | 'download' | null;
  onOpen: () => void;
  onDownload: () => void;
}) {
  const { t, i18n } = useTranslation('appCarePlan');
  const kind = fileKind(file);
  return (
    <li className="attachment">
      <button
        type="button"
        className="attachment-open"
        data-file-id={file.id}
        aria-busy={busy === 'open'}
        onClick={onOpen}
      >
        {kind === 'pdf' ? <PdfIcon /> : <ImageIcon />}
        <span className="attachment-text">
          {/* Named "Open …" / "View …" for screen readers; the visible name stays the file's. */}
          <span className="visually-hidden">{t(kind === 'pdf' ? 'records.openVerb' : 'records.viewVerb')} </span>
          <span className="attachment-name" data-testid="attachment-name">
            {file.name}
          </span>
          <span className="record-meta">
            {busy === 'open'
              ? t('records.opening')
              : `${t(`records.kind.${kind}`)} · ${sizeText(i18n.language, file.size)}`}
          </span>
        </span>
      </button>
      <button
        type="button"
        className="attachment-download"
        aria-label={t('records.downloadFile', { name: file.name })}
        title={t('records.download')}
        aria-busy={busy === 'download'}
        onClick={onDownload}
      >
        <DownloadIcon />
      </button>
    </li>
  );
}

/**
 * One record in a sheet over the list (a native modal dialog: the list behind is inert, Escape or
 * the phone's back closes it): every field, the note and the attachments. Read only: the care
 * team writes the records in the console.
 */
function RecordSheet({ record, onClose }: { record: MedicalRecord; onClose: () => void }) {
  const { t, i18n } = useTranslation('appCarePlan');
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [opened, setOpened] = useState<Opened | null>(null);
  const [busy, setBusy] = useState<{ fileId: string; action: 'open' | 'download' } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const urlRef = useRef<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // The file's bytes do not outlive the sheet.
      if (urlRef.current !== null) URL.revokeObjectURL(urlRef.current);
      urlRef.current = null;
    };
  }, []);

  const closeViewer = () => {
    if (urlRef.current !== null) URL.revokeObjectURL(urlRef.current);
    urlRef.current = null;
    const fileId = opened?.file.id;
    setOpened(null);
    // Back to the attachment that was opened (drawn again with the record).
    requestAnimationFrame(() => {
      ref.current?.querySelector<HTMLElement>(`[data-file-id="${fileId ?? ''}"]`)?.focus();
    });
  };

  const open = async (file: PatientFile) => {
    if (busy !== null) return;
    setFailure(null);
    setBusy({ fileId: file.id, action: 'open' });
    try {
      const blob = await fetchRecordFile(record.id, file.id);
      const url = URL.createObjectURL(blob);
      if (urlRef.current !== null) URL.revokeObjectURL(urlRef.current);
      urlRef.current = url;
      // Still within the tap's activation: the browser lets the PDF open in a tab (null when it refuses).
      const tab = fileKind(file) === 'pdf' ? window.open(url, '_blank') : null;
      setOpened({ file, url, inNewTab: tab !== null });
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const download = async (file: PatientFile) => {
    if (busy !== null) return;
    setFailure(null);
    setBusy({ fileId: file.id, action: 'download' });
    try {
      saveBlob(await fetchRecordFile(record.id, file.id), file.name);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <dialog
      ref={ref}
      className="record-sheet"
      aria-labelledby={`${id}-title`}
      data-testid="record-detail"
      onCancel={(event) => {
        event.preventDefault();
        if (opened === null) onClose();
        else closeViewer();
      }}
      // Closed by the browser itself (a back gesture it does not let the page refuse): the same as Close.
      onClose={() => {
        if (ref.current?.open !== true) onClose();
      }}
    >
      <div className="record-sheet-head">
        <h2 id={`${id}-title`}>{record.title}</h2>
        <button type="button" className="sheet-close" aria-label={t('records.close')} onClick={onClose}>
          ×
        </button>
      </div>
      <div className="record-sheet-body">
        {failure === null ? null : <Alert>{failure}</Alert>}
        {opened === null ? (
          <>
            <dl className="care-facts">
              <dt>{t('records.fields.type')}</dt>
              <dd>
                <span className={`badge record-type record-type-${record.type.toLowerCase()}`}>
                  {t(`records.types.${record.type}`)}
                </span>
              </dd>
              <dt>{t('records.fields.examinationDate')}</dt>
              <dd data-testid="record-examination-date">{dayText(i18n.language, record.examinationDate)}</dd>
              <dt>{t('records.fields.place')}</dt>
              <dd>{record.place ?? t('records.none')}</dd>
              <dt>{t('records.fields.doctor')}</dt>
              <dd>{record.doctor ?? t('records.none')}</dd>
              {record.note === null ? null : (
                <>
                  <dt>{t('records.fields.note')}</dt>
                  <dd className="care-note">{record.note}</dd>
                </>
              )}
              {record.createdBy === null ? null : (
                <>
                  <dt>{t('records.fields.addedBy')}</dt>
                  <dd>{record.createdBy.fullName}</dd>
                </>
              )}
            </dl>
            <section className="record-files" aria-labelledby={`${id}-files`}>
              <h3 id={`${id}-files`}>{t('records.attachments')}</h3>
              {record.files.length === 0 ? (
                <p className="hint">{t('records.noFiles')}</p>
              ) : (
                <ul className="attachment-list">
                  {record.files.map((file) => (
                    <AttachmentItem
                      key={file.id}
                      file={file}
                      busy={busy?.fileId === file.id ? busy.action : null}
                      onOpen={() => {
                        void open(file);
                      }}
                      onDownload={() => {
                        void download(file);
                      }}
                    />
                  ))}
                </ul>
              )}
            </section>
            <p className="hint record-read-only">{t('records.readOnly')}</p>
          </>
        ) : (
          <AttachmentViewer opened={opened} onClose={closeViewer} />
        )}
      </div>
    </dialog>
  );
}

/**
 * Medical records (spec §3 Medical record; §6 the patient does not change them): the active
 * profile's records, latest examination first, with a type filter and a search, a page at a time;
 * each opens in a sheet with its attachments.
 */
export function MedicalRecordsPage() {
  const { t } = useTranslation('appCarePlan');
  const searchId = useId();
  const typeId = useId();
  const [type, setType] = useState<MedicalRecordType | ''>('');
  const [searchText, setSearchText] = useState('');
  const search = useSettled(searchText, 350);
  const list = useInfiniteQuery({ ...recordsQuery({ search, type }), placeholderData: keepPreviousData });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;
  const isFiltered = search.trim() !== '' || type !== '';
  const isFollowed = useActiveProfile()?.kind === 'FOLLOWED';
  const [openId, setOpenId] = useState<string | null>(null);
  const openerRef = useRef<HTMLElement | null>(null);
  const shown = openId === null ? undefined : items.find((record) => record.id === openId);

  const emptyText = isFiltered ? t('records.noMatch') : isFollowed ? t('records.notShared') : t('records.empty');
  return (
    <div className="care-page records-page">
      <h1>{t('records.heading')}</h1>
      <MedicinesNav />
      <form
        className="card record-filters"
        role="search"
        aria-label={t('records.filters')}
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <div className="field">
          <label htmlFor={searchId}>{t('records.search')}</label>
          <input
            id={searchId}
            type="search"
            value={searchText}
            maxLength={80}
            autoComplete="off"
            aria-describedby={`${searchId}-hint`}
            onChange={(event) => {
              setSearchText(event.target.value);
            }}
          />
          <p id={`${searchId}-hint`} className="hint">
            {t('records.searchHint')}
          </p>
        </div>
        <div className="field">
          <label htmlFor={typeId}>{t('records.fields.type')}</label>
          <select
            id={typeId}
            value={type}
            onChange={(event) => {
              setType(event.target.value as MedicalRecordType | '');
            }}
          >
            <option value="">{t('records.allTypes')}</option>
            {MEDICAL_RECORD_TYPES.map((value) => (
              <option key={value} value={value}>
                {t(`records.types.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </form>
      <section className="card" aria-labelledby="records-list-heading" aria-busy={list.isFetching}>
        <h2 id="records-list-heading">{t('records.listHeading')}</h2>
        {list.data === undefined || total === 0 ? null : (
          <p className="hint" role="status" data-testid="records-count">
            {t('records.count', { count: total })}
          </p>
        )}
        {list.isPending ? <p role="status">{t('patient:loading')}</p> : null}
        {list.isError ? (
          <div className="records-error">
            <Alert>{errorMessage(list.error)}</Alert>
            <button
              type="button"
              onClick={() => {
                void list.refetch();
              }}
            >
              {t('records.retry')}
            </button>
          </div>
        ) : null}
        {list.data !== undefined && items.length === 0 ? <p className="records-empty" role="status">{emptyText}</p> : null}
        {items.length > 0 ? (
          <ul className="record-list">
            {items.map((record) => (
              <RecordItem
                key={record.id}
                record={record}
                onOpen={(opener) => {
                  openerRef.current = opener;
                  setOpenId(record.id);
                }}
              />
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
            {t('records.more')}
          </button>
        ) : null}
      </section>
      {shown === undefined ? null : (
        <RecordSheet
          key={shown.id}
          record={shown}
          onClose={() => {
            setOpenId(null);
            requestAnimationFrame(() => openerRef.current?.focus());
          }}
        />
      )}
    </div>
  );
}
