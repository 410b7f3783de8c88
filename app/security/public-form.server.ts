/**
 * The form a public page posts (a shopper's answer, with no login in front of it), read so that no body can fail the
 * request: its fields when it is a URL-encoded form within `maxBytes`, or why not — too large, or not such a form (a
 * JSON or multipart body, or none) — for the page to answer with a 4xx instead of the framework's 500.
 */
export type PublicForm = { ok: true; fields: URLSearchParams } | { ok: false; problem: "too_large" | "not_a_form" };

export async function readPublicForm(request: Request, maxBytes: number): Promise<PublicForm> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return { ok: false, problem: "not_a_form" };
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) return { ok: false, problem: "too_large" };
  let text: string;
  try {
    text = await request.text();
  } catch {
    return { ok: false, problem: "not_a_form" };
  }
  if (Buffer.byteLength(text) > maxBytes) return { ok: false, problem: "too_large" };
  return { ok: true, fields: new URLSearchParams(text) };
}
