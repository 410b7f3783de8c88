import type { OrderNoteQuery, OrderNoteQueryVariables, OrderNoteUpdateMutation, OrderNoteUpdateMutationVariables } from "~/types/admin.generated";
import { adminDocument } from "./admin-document";
import { adminGraphql, type ShopAdmin } from "./admin-graphql.server";

/**
 * An order's note, which Dakiya adds lines to for the merchant's record (a remittance's bank reference, a shopper's
 * corrected contact): read, and written whole (`orderUpdate`), the caller adding its line to what it read
 * (`noteWithLine` in ./order-note).
 */

const ORDER_NOTE = adminDocument<OrderNoteQuery, OrderNoteQueryVariables>(
  `#graphql
  query OrderNote($id: ID!) {
    order(id: $id) {
      id
      note
    }
  }
`
);

const ORDER_NOTE_UPDATE = adminDocument<OrderNoteUpdateMutation, OrderNoteUpdateMutationVariables>(
  `#graphql
  mutation OrderNoteUpdate($input: OrderInput!) {
    orderUpdate(input: $input) {
      order { id note }
      userErrors { field message }
    }
  }
`
);

/** The order's note as Shopify holds it now ("" for none); null when Shopify has no such order. */
export async function readOrderNote(admin: ShopAdmin, orderGid: string): Promise<string | null> {
  const { order } = await adminGraphql(admin, ORDER_NOTE, { id: orderGid });
  return order ? (order.note ?? "") : null;
}

export type NoteOutcome = { kind: "recorded" } | { kind: "refused"; message: string };

/** The order's note set to `note`, whole. */
export async function setOrderNote(admin: ShopAdmin, orderGid: string, note: string): Promise<NoteOutcome> {
  const answer = await adminGraphql(admin, ORDER_NOTE_UPDATE, { input: { id: orderGid, note } });
  const refusals = answer.orderUpdate?.userErrors ?? [];
  if (refusals.length === 0 && answer.orderUpdate?.order) return { kind: "recorded" };
  return { kind: "refused", message: refusals.map((refusal) => refusal.message).join("; ") || "Shopify did not update the order." };
}
