import type { ErrorResult, FieldError } from "~/shipping/contract";

/** A refusal the client caused or can act on; the HTTP layer answers it with its status, never a 5xx. */
export class ServiceFailure extends Error {
  override name = "ServiceFailure";
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 409 | 413 | 422 | 429,
    message: string,
    readonly errors: FieldError[] = [],
    /** For 429: sent as the Retry-After header. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  toBody(): ErrorResult {
    return { success: false, message: this.message, errors: this.errors };
  }
}

export const invalid = (errors: FieldError[]) =>
  new ServiceFailure(422, `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}`, errors);

export const tooManyFailures = (seconds: number) =>
  new ServiceFailure(
    429,
    `Too many failed authentication attempts; try again in ${seconds} second${seconds === 1 ? "" : "s"}`,
    [{ field: "X-Secret-Key", message: "too many wrong credentials from this key or address" }],
    seconds,
  );
