import type { ErrorCode, FieldError } from '@rpm/contracts';

/** A failure the API answers with a code of the catalogue (contracts errors.ts). */
export class AppError extends Error {
  readonly fieldErrors: FieldError[] | undefined;
  /** Headers sent with the error envelope (e.g. Retry-After on a 429). */
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    readonly code: ErrorCode,
    options: { fieldErrors?: FieldError[]; cause?: unknown; detail?: string; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(options.detail ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
  }
}
