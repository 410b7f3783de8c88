/**
 * How large an upload of the remittance and freight checks may be, in bytes: checked by the HTTP server before and
 * while the body arrives (server/body-limits.ts), and again by the code that reads it. Pure, with no imports: the
 * server's start-up reads it too.
 */

/** A courier's statement: 200,000 rows at about 160 bytes each. */
export const STATEMENT_MAX_BYTES = 32 * 1024 * 1024;

/** A packing photo: a phone's photo at full size. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

/** Where each is uploaded: the body is handed on as it arrives rather than read whole first. */
export const STREAMED_UPLOADS: readonly { path: RegExp; limit: number }[] = [
  { path: /^\/app\/(cod|freight)\/upload\/?$/, limit: STATEMENT_MAX_BYTES },
  { path: /^\/app\/freight\/photo\/\d{1,10}\/?$/, limit: PHOTO_MAX_BYTES },
];
