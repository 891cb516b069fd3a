import { LIMITS } from '@rpm/contracts';

/** The image types the server recognises by content (avatar-routes.ts). */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type AvatarProblem = 'avatarTooLarge' | 'avatarWrongType';

/** Why a chosen file cannot be a profile photo, before it is sent (the server checks again). */
export function avatarProblem(file: { size: number; type: string }): AvatarProblem | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'avatarWrongType';
  if (file.size > LIMITS.profilePhotoMaxBytes) return 'avatarTooLarge';
  return null;
}
