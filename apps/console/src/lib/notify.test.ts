import { beforeEach, describe, expect, it, vi } from 'vitest';

const shown: Record<string, unknown>[] = [];
vi.mock('@mantine/notifications', () => ({
  notifications: {
    show: (options: Record<string, unknown>) => {
      shown.push(options);
      return 'toast';
    },
  },
}));

const { notifyError, notifySuccess, SUCCESS_TOAST_MILLISECONDS, TOAST_CONTAINER } = await import('./notify');

describe('toasts', () => {
  beforeEach(() => {
    shown.length = 0;
  });

  it('appear at the top, away from the forms’ bottom action bar, six at most', () => {
    expect(TOAST_CONTAINER.position).toMatch(/^top-/);
    expect(TOAST_CONTAINER.limit).toBe(6);
  });

  it('a success closes by itself after a few seconds (the timer pauses while hovered)', () => {
    notifySuccess('Saved');
    expect(shown).toEqual([
      expect.objectContaining({ message: 'Saved', autoClose: SUCCESS_TOAST_MILLISECONDS }),
    ]);
    expect(SUCCESS_TOAST_MILLISECONDS).toBeGreaterThanOrEqual(3000);
    expect(SUCCESS_TOAST_MILLISECONDS).toBeLessThanOrEqual(10_000);
  });

  it('an error stays until it is closed', () => {
    notifyError(new Error('boom'));
    expect(shown).toEqual([
      expect.objectContaining({ color: 'red', autoClose: false, withCloseButton: true }),
    ]);
  });
});
