import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A full-screen modal (the native `<dialog>` opened with showModal: the rest of the page is inert,
 * so focus stays inside and screen readers see only the dialog). Escape does not close it: only
 * its own buttons answer. `labelId` names the dialog; `describedId` describes it.
 */
export function FullScreenDialog(props: {
  labelId: string;
  describedId?: string;
  tone: 'danger' | 'warning' | 'notice';
  testId: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
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
      className={`fullscreen-dialog tone-${props.tone}`}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={props.labelId}
      aria-describedby={props.describedId}
      data-testid={props.testId}
      onCancel={(event) => {
        event.preventDefault();
      }}
    >
      <div className="fullscreen-dialog-body">{props.children}</div>
    </dialog>
  );
}

/** Whole seconds left until `deadline` (ms), never below zero; ticks every quarter second. */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}
