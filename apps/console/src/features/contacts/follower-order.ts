import { canResendAt, CONTACT_TYPES, INVITATION_STATUSES, type Contact } from '@rpm/contracts';
import type { SortState } from '../shell/columns';

/** The columns of the followers table a person may order by (the list is short: sorted here). */
export const FOLLOWER_SORT_FIELDS = ['name', 'contactType', 'invitationStatus', 'createdAt'] as const;
export type FollowerSortField = (typeof FOLLOWER_SORT_FIELDS)[number];

const rankOf = <T extends string>(values: readonly T[], value: T) => values.indexOf(value);

function compare(left: Contact, right: Contact, field: FollowerSortField, locale: string): number {
  switch (field) {
    case 'name':
      return left.name.localeCompare(right.name, locale, { sensitivity: 'base' });
    case 'contactType':
      return rankOf(CONTACT_TYPES, left.contactType) - rankOf(CONTACT_TYPES, right.contactType);
    case 'invitationStatus':
      return rankOf(INVITATION_STATUSES, left.invitationStatus) - rankOf(INVITATION_STATUSES, right.invitationStatus);
    case 'createdAt':
      return left.createdAt.localeCompare(right.createdAt);
  }
}

/**
 * The followers in the order chosen by a column header; with none chosen, the server's order
 * (favourite first, then emergency, then the oldest: the order calls are placed). Ties keep the
 * server's order, so the one called first stays first among equals.
 */
export function orderFollowers(
  contacts: readonly Contact[],
  sort: SortState<FollowerSortField> | null,
  locale = 'en',
): Contact[] {
  if (sort === null) return [...contacts];
  const direction = sort.sortType === 'asc' ? 1 : -1;
  return contacts
    .map((contact, index) => ({ contact, index }))
    .sort(
      (left, right) =>
        direction * compare(left.contact, right.contact, sort.sortField, locale) || left.index - right.index,
    )
    .map(({ contact }) => contact);
}

/** Whether the invitation may be sent again at `now` (the shared rule: its state allows it, 5 minutes passed). */
export function canResendNow(contact: Contact, now: Date): boolean {
  return canResendAt(contact.invitationStatus, new Date(contact.lastSentAt), now);
}
