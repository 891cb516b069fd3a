import { describe, expect, it } from 'vitest';
import { LIMITS } from '@rpm/contracts';
import { avatarProblem } from './avatar-rules';

describe('avatarProblem', () => {
  it('accepts the four image types up to 1 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(avatarProblem({ type, size: LIMITS.profilePhotoMaxBytes })).toBeNull();
    }
  });

  it('refuses larger files and anything that is not one of those images', () => {
    expect(avatarProblem({ type: 'image/png', size: LIMITS.profilePhotoMaxBytes + 1 })).toBe(
      'avatarTooLarge',
    );
    expect(avatarProblem({ type: 'image/svg+xml', size: 10 })).toBe('avatarWrongType');
    expect(avatarProblem({ type: '', size: 10 })).toBe('avatarWrongType');
  });
});
