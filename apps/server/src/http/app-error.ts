import type { ErrorCode, FieldError } from '@rpm/contracts';

/** A failure the API answers with a code of the catalogue (contracts errors.ts). */
export class AppError extends Error {
  readonly fieldErrors: FieldError[] | undefined;

  constructor(
    readonly code: ErrorCode,
    options: { fieldErrors?: FieldError[]; cause?: unknown; detail?: string } = {},
  ) {
    super(options.detail ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.fieldErrors = options.fieldErrors;
  }
}
