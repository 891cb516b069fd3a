import { LIMITS } from '@rpm/contracts';
import type { Readable } from 'node:stream';
import { AppError } from '../../http/app-error.js';
import { FileRejectedError, IMAGE_TYPES, type FileRejection, type FileStorage, type OpenedFile, type StoredFile } from '../../lib/file-storage.js';
import { patientIdsOfAccount, recordPatientReads } from '../audit/reads.js';
import { recordAudit } from '../audit/store.js';
import { findUserByLogin } from '../auth/store.js';
import { accountRoleOf, assertRankBelow } from '../roles/hierarchy.js';
import type { AccountEnvironment, Caller } from './service.js';
import { findProfileRow, lockUser, updateUser } from './store.js';

export interface AvatarEnvironment extends AccountEnvironment {
  storage: FileStorage;
  /** Where a failure after the commit goes (it must not turn a stored avatar into an error). */
  log: { warn(details: object, message: string): void };
}

/** The uploaded file, received only once the target account is known to be allowed. */
export interface Upload {
  stream: Readable;
  /** True when the upload was cut at the transport's size limit. */
  isTruncated: () => boolean;
}
export type ReceiveUpload = () => Promise<Upload>;

const ERROR_OF_REJECTION = {
  tooLarge: 'file.tooLarge',
  unsupportedType: 'file.unsupportedType',
  empty: 'file.missing',
  unreadable: 'common.invalidParameter',
} as const satisfies Record<FileRejection, string>;

interface AvatarTarget {
  tenantId: string;
  userId: string;
}

async function storeUpload(environment: AvatarEnvironment, target: AvatarTarget, receive: ReceiveUpload): Promise<StoredFile> {
  const upload = await receive();
  try {
    return await environment.storage.save(upload.stream, {
      tenantId: target.tenantId,
      category: 'avatars',
      maxBytes: LIMITS.profilePhotoMaxBytes,
      accept: IMAGE_TYPES,
      isTruncated: upload.isTruncated,
    });
  } catch (error) {
    if (error instanceof FileRejectedError) throw new AppError(ERROR_OF_REJECTION[error.reason], { cause: error });
    throw error;
  }
}

/**
 * Stores a new avatar for `target`: the file first, then the row and its audit entry in one
 * transaction; the previous file is removed only after that commit, so a failure at any step
 * leaves the account with a working avatar (the old or the new one).
 */
async function replaceAvatar(environment: AvatarEnvironment, target: AvatarTarget, receive: ReceiveUpload): Promise<void> {
  const { database, clock, storage } = environment;
  const stored = await storeUpload(environment, target, receive);
  let previousKey: string | null;
  try {
    previousKey = await database.withTenant(target.tenantId, async (tx) => {
      const user = await lockUser(tx, target.userId);
      if (user === undefined) throw new AppError('account.notFound');
      const now = clock.now();
      await updateUser(tx, user.id, { avatarFile: stored.key }, now);
      await recordAudit(tx, target.tenantId, environment.audit, {
        action: 'ACCOUNT_AVATAR_UPDATED',
        subjectUserId: user.id,
        targetType: 'user',
        targetId: user.id,
        details: { contentType: stored.contentType, size: stored.size },
        at: now,
      });
      return user.avatarFile;
    });
  } catch (error) {
    await storage.remove(stored.key).catch((removeError: unknown) => {
      environment.log.warn({ err: removeError, key: stored.key }, 'could not remove an avatar that was not saved');
    });
    throw error;
  }
  if (previousKey !== null) {
    await storage.remove(previousKey).catch((error: unknown) => {
      // The new avatar is committed; an orphaned old file costs disk space, not correctness.
      environment.log.warn({ err: error, key: previousKey }, 'could not remove the previous avatar');
    });
  }
}

/** POST /account/me/profile/upload-avatar: the caller's own avatar. */
export function uploadOwnAvatar(environment: AvatarEnvironment, caller: Caller, receive: ReceiveUpload): Promise<void> {
  return replaceAvatar(environment, { tenantId: caller.accountTenantId, userId: caller.userId }, receive);
}

const isSameUsername = (username: string, email: string | null, phone: string | null) =>
  (email !== null && email.toLowerCase() === username.toLowerCase()) || (phone !== null && phone === username);

/**
 * POST /account/avatar?username=…: the caller's own avatar, addressed by their username. Another
 * account's username is "not found" before any byte of the file is read.
 */
export async function uploadOwnAvatarByUsername(
  environment: AvatarEnvironment,
  caller: Caller,
  username: string,
  receive: ReceiveUpload,
): Promise<void> {
  const own = await environment.database.withTenant(caller.accountTenantId, (tx) => findProfileRow(tx, caller.userId));
  if (own === undefined || !isSameUsername(username.trim(), own.user.email, own.user.phone)) throw new AppError('account.notFound');
  await replaceAvatar(environment, { tenantId: caller.accountTenantId, userId: caller.userId }, receive);
}

/**
 * POST /account/admin/user/adminUploadAvatarForUser?username=…: a user of the acting tenant whom the
 * caller sees (anyone else is "not found", exactly like a username that does not exist) and who
 * ranks strictly below the caller. Decided before any byte of the file is read.
 */
export async function uploadAvatarForUser(
  environment: AvatarEnvironment,
  caller: Caller,
  username: string,
  receive: ReceiveUpload,
): Promise<void> {
  const target = await environment.database.withTenant(
    caller.tenantId,
    async (tx) => {
      const user = await findUserByLogin(tx, username.trim());
      if (user === undefined) throw new AppError('account.notFound');
      assertRankBelow(await accountRoleOf(tx, user), caller.role);
      return user;
    },
    caller.visibility,
  );
  await replaceAvatar(environment, { tenantId: caller.tenantId, userId: target.id }, receive);
}

async function openAvatarOf(environment: AvatarEnvironment, tenantId: string, userId: string, visibility?: Caller['visibility']): Promise<OpenedFile> {
  const row = await environment.database.withTenant(tenantId, (tx) => findProfileRow(tx, userId), visibility);
  if (row === undefined) throw new AppError('account.notFound');
  const file = row.user.avatarFile === null ? undefined : await environment.storage.open(row.user.avatarFile);
  if (file === undefined) throw new AppError('common.notFound');
  return file;
}

export function openOwnAvatar(environment: AvatarEnvironment, caller: Caller): Promise<OpenedFile> {
  return openAvatarOf(environment, caller.accountTenantId, caller.userId);
}

/**
 * A user of the acting tenant whom the caller sees; anyone else's id is "not found". The photo of
 * a patient's own account is a read of that patient: audited (PATIENT_AVATAR_VIEWED) in the same
 * transaction, which commits before the image is sent; a staff account's photo is not.
 */
export async function openUserAvatar(environment: AvatarEnvironment, caller: Caller, userId: string): Promise<OpenedFile> {
  let opened: OpenedFile | undefined;
  try {
    return await environment.database.withTenant(
      caller.tenantId,
      async (tx) => {
        const row = await findProfileRow(tx, userId);
        if (row === undefined) throw new AppError('account.notFound');
        opened = row.user.avatarFile === null ? undefined : await environment.storage.open(row.user.avatarFile);
        if (opened === undefined) throw new AppError('common.notFound');
        const patientIds = await patientIdsOfAccount(tx, row.user.id);
        if (patientIds.length > 0) {
          await recordPatientReads(tx, caller.tenantId, environment.audit, {
            action: 'PATIENT_AVATAR_VIEWED',
            patientIds,
            subjectUserId: row.user.id,
            targetType: 'user',
            targetId: row.user.id,
          });
        }
        return opened;
      },
      caller.visibility,
    );
  } catch (error) {
    opened?.stream.destroy();
    throw error;
  }
}
