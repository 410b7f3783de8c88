import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { answerDocument } from "~/documents/document-responses.server";
import { printManifest } from "~/documents/documents.server";
import { authenticate } from "~/shopify.server";

/** GET /api/manifests/{id} — a pickup manifest made earlier, printed again, behind the admin's session token. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  const id = params.id ?? "";
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2 ** 31 - 1) return cors(json({ error: "The manifest id must be a whole number." }, { status: 400 }));
  return cors(await answerDocument(() => printManifest(session.shop, Number(id))));
};
