import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { answerConfirmationRequest, confirmationDocument } from "~/cod/confirmation-page.server";

/**
 * `GET|POST /confirm/{token}`: the shopper's link to confirm a cash-on-delivery order, on the app's own address (the
 * same page is on the shop's domain through the app proxy). No login: the signed token is the shopper's (app/cod/).
 */
const respond = async ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs) =>
  confirmationDocument(await answerConfirmationRequest({ request, token: params.token, shop: null, clientAddress: context.clientAddress ?? "unknown" }), new URL(request.url).pathname);

export const loader = respond;
export const action = respond;
