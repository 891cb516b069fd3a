import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A date and time in the app's language, as the other pages of the app write them. */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => format.format(new Date(iso));
}

/** This phone's clock, ticking every second while `until` (ms) is still ahead, then still. */
export function useNowUntil(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || until <= Date.now()) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= until) clearInterval(timer);
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [until]);
  return now;
}

/**
 * A small confirmation (native modal `<dialog>`: focus stays inside, Escape cancels). The cancel
 * button takes the focus first, so a stray Enter does not remove anyone.
 */
export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirm: string;
  busy: boolean;
  error?: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('appContacts');
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{props.title}</h2>
      <p id={`${id}-body`}>{props.body}</p>
      {props.error ? <p className="field-error" role="alert">{props.error}</p> : null}
      <div className="confirm-actions">
        <button type="button" autoFocus onClick={props.onCancel}>
          {t('form.cancel')}
        </button>
        <button type="button" className="danger" disabled={props.busy} onClick={props.onConfirm}>
          {props.confirm}
        </button>
      </div>
    </dialog>
  );
}

/** A labelled list choice with its error, wired for screen readers. */
export function SelectField(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  placeholder: string;
  error?: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(event) => {
          props.onChange(event.target.value);
        }}
      >
        <option value="" disabled>
          {props.placeholder}
        </option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {props.error ? <p id={`${id}-error`} className="field-error">{props.error}</p> : null}
    </div>
  );
}

