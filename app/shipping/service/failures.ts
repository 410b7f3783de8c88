import type { ErrorResult, FieldError } from "../contract";

/** A refusal the client caused or can act on; the HTTP layer answers it with its status, never a 5xx. */
export class ServiceFailure extends Error {
  override name = "ServiceFailure";
  constructor(
    readonly status: 400 | 401 | 404 | 405 | 409 | 413 | 422,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }

  toBody(): ErrorResult {
    return { success: false, message: this.message, errors: this.errors };
  }
}

export const invalid = (errors: FieldError[]) =>
  new ServiceFailure(422, `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}`, errors);
