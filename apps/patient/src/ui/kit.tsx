import { useId, type ReactNode, type InputHTMLAttributes } from 'react';

/** A labelled input with its hint and error, wired for screen readers. */
export function TextField(
  props: { label: string; hint?: string | undefined; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>,
) {
  const { label, hint, error, ...input } = props;
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={described || undefined} {...input} />
      {hint ? <p id={`${id}-hint`} className="hint">{hint}</p> : null}
      {error ? <p id={`${id}-error`} className="field-error">{error}</p> : null}
    </div>
  );
}

export function Checkbox(props: { label: string; checked: boolean; onChange: (checked: boolean) => void; error?: string | undefined }) {
  const id = useId();
  return (
    <div className="field">
      <div className="check">
        <input id={id} type="checkbox" checked={props.checked} onChange={(event) => { props.onChange(event.target.checked); }} />
        <label htmlFor={id}>{props.label}</label>
      </div>
      {props.error ? <p className="field-error">{props.error}</p> : null}
    </div>
  );
}

/** A failed action's message, announced when it appears. */
export function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'info' }) {
  return <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>{children}</div>;
}

/** An on/off switch (a checkbox announced as a switch), with its label beside it (styles.css). */
export function Switch(props: {
  label: string;
  checked: boolean;
  disabled?: boolean | undefined;
  describedBy?: string | undefined;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="switch-row">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onChange={(event) => {
          props.onChange(event.target.checked);
        }}
      />
    </div>
  );
}
