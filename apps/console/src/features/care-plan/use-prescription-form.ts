import { useCallback, useEffect, useRef, useState } from 'react';
import { fieldMessageText, type FieldMessages } from '../../lib/form-errors';
import type { PrescriptionValues } from './form-values';

/**
 * Drops the messages of `prefixes` and of every field under them ("medicines.0" takes
 * "medicines.0.dose"), and those of `exact` alone ("medicines": the list, not its medicines).
 */
export function withoutMessages(
  messages: FieldMessages,
  prefixes: readonly string[],
  exact: readonly string[] = [],
): FieldMessages {
  const kept = Object.entries(messages).filter(
    ([path]) =>
      !exact.includes(path) && !prefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}.`)),
  );
  return kept.length === Object.keys(messages).length ? messages : Object.fromEntries(kept);
}

/**
 * The prescription form's state: nested values (medicines, their reminder times), a message per
 * dotted field path, and focus on the first invalid field after a failed save, as the console's
 * other forms do (lib/use-form-state.ts, which holds flat forms).
 */
export function usePrescriptionForm(initial: PrescriptionValues) {
  const [values, setValues] = useState<PrescriptionValues>(initial);
  const [messages, setMessages] = useState<FieldMessages>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  /** Changes the values and drops the messages of the fields being fixed (see withoutMessages). */
  const change = useCallback(
    (
      recipe: (current: PrescriptionValues) => PrescriptionValues,
      fixes: readonly string[],
      exactFixes: readonly string[] = [],
    ) => {
      setValues(recipe);
      setMessages((current) => withoutMessages(current, fixes, exactFixes));
    },
    [],
  );

  /** Shows these messages (and only these), focusing the first invalid field. */
  const show = useCallback((next: FieldMessages) => {
    setMessages(next);
    if (Object.keys(next).length > 0) setFocusRequest((count) => count + 1);
  }, []);

  /** The translated message of a field, for a Mantine `error` prop. */
  const errorOf = (path: string): string | undefined => fieldMessageText(messages[path]);

  return { values, messages, change, show, errorOf, formRef };
}

export type PrescriptionFormState = ReturnType<typeof usePrescriptionForm>;
