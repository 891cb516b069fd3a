import {
  ORDER_EXPORT_ATTRIBUTES,
  orderExportSchema,
  PAYMENT_METHODS,
  type OrderExportAttribute,
  type OrderExportInput,
  type OrderStatus,
  type PaymentMethod,
} from '@rpm/contracts';
import { messagesForIssues, type FieldMessages } from '../../lib/form-errors';
import { parseDisplayDate } from '../../lib/format';

/** The export dialog as filled in: the dates as typed (dd/MM/yyyy, spec §9). */
export interface ExportFormValues {
  attributes: OrderExportAttribute[];
  methods: PaymentMethod[];
  from: string;
  to: string;
  status: OrderStatus | null;
}

const PROBLEM = 'payments:transactions.export.problems';

/** The chosen values in the order of the full list (the file's columns follow the list). */
export function inListOrder<Value extends string>(all: readonly Value[], chosen: readonly string[]): Value[] {
  return all.filter((value) => chosen.includes(value));
}

/** A typed day as ISO (yyyy-MM-dd), or the message saying what is wrong with it. */
function dayOf(text: string): { day: string } | { message: FieldMessages[string] } {
  if (text.trim() === '') return { message: { key: `${PROBLEM}.date` } };
  const day = parseDisplayDate(text);
  return day === null ? { message: { key: `${PROBLEM}.dateInvalid` } } : { day };
}

/**
 * The export's payload, checked as spec §5 asks before anything is sent: at least one attribute,
 * a payment method and the dates (the end not before the start). Either the input, its attributes
 * and methods in the order of their lists, or the messages by form field.
 */
export function exportInputOf(
  values: ExportFormValues,
): { input: OrderExportInput; messages?: never } | { input?: never; messages: FieldMessages } {
  const messages: FieldMessages = {};
  const attributes = inListOrder(ORDER_EXPORT_ATTRIBUTES, values.attributes);
  const methods = inListOrder(PAYMENT_METHODS, values.methods);
  if (attributes.length === 0) messages.attributes = { key: `${PROBLEM}.attributes` };
  if (methods.length === 0) messages.methods = { key: `${PROBLEM}.methods` };
  const from = dayOf(values.from);
  const to = dayOf(values.to);
  if ('message' in from) messages.from = from.message;
  if ('message' in to) messages.to = to.message;
  if ('day' in from && 'day' in to && to.day < from.day) messages.to = { key: `${PROBLEM}.order` };
  if (Object.keys(messages).length > 0 || !('day' in from) || !('day' in to)) return { messages };
  const parsed = orderExportSchema.safeParse({
    attributes,
    methods,
    from: from.day,
    to: to.day,
    ...(values.status === null ? {} : { status: values.status }),
  });
  return parsed.success ? { input: parsed.data } : { messages: messagesForIssues(parsed.error.issues) };
}
