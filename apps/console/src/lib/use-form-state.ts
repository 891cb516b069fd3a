import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { fieldMessageText, messagesForIssues, serverFieldMessages, type FieldMessages } from './form-errors';

/**
 * The small amount of form state the console needs (no form library): values, per-field
 * messages from the contract schema or the server, and focus on the first invalid field after a
 * failed submit so keyboard and screen-reader users land where the problem is.
 */
export function useFormState<V extends object>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [messages, setMessages] = useState<FieldMessages>({});
  const formRef = useRef<HTMLFormElement>(null);
  const [focusRequest, setFocusRequest] = useState(0);

  useEffect(() => {
    if (focusRequest === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [focusRequest]);

  const clearMessage = useCallback((path: string) => {
    setMessages((current) => {
      if (!(path in current)) return current;
      return Object.fromEntries(Object.entries(current).filter(([key]) => key !== path));
    });
  }, []);

  /** Sets one top-level field and drops its message: the user is fixing it. */
  const setField = useCallback(
    <K extends keyof V & string>(name: K, value: V[K]) => {
      setValues((current) => ({ ...current, [name]: value }));
      clearMessage(name);
    },
    [clearMessage],
  );

  /** Parses `input` with the schema; on failure shows its messages and returns null. */
  const validate = useCallback(<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | null => {
    const result = schema.safeParse(input);
    if (result.success) {
      setMessages({});
      return result.data;
    }
    setMessages(messagesForIssues(result.error.issues));
    setFocusRequest((count) => count + 1);
    return null;
  }, []);

  /** Shows the server's field errors of a failed call; returns whether there were any. */
  const showServerErrors = useCallback((error: unknown, rename?: Record<string, string>): boolean => {
    const fromServer = serverFieldMessages(error, rename);
    if (Object.keys(fromServer).length === 0) return false;
    setMessages(fromServer);
    setFocusRequest((count) => count + 1);
    return true;
  }, []);

  const setMessage = useCallback((path: string, message: FieldMessages[string]) => {
    setMessages((current) => ({ ...current, [path]: message }));
    setFocusRequest((count) => count + 1);
  }, []);

  const clearMessages = useCallback(() => {
    setMessages({});
  }, []);

  /** The translated message of a field, for a Mantine `error` prop. */
  const errorOf = (path: string): string | undefined => fieldMessageText(messages[path]);

  return {
    values,
    setValues,
    setField,
    messages,
    clearMessage,
    clearMessages,
    setMessage,
    validate,
    showServerErrors,
    errorOf,
    formRef,
  };
}
