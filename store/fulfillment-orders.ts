import { gid, nextId, type StoreFulfillmentHold, type StoreFulfillmentOrder, type StoreFulfillmentOrderLine, type StoreLineItem, type StoreOrder, type StoreShop } from "./model";
import { fulfillable, stocks } from "./stock";
import { fulfillmentOrderView } from "./views";

/**
 * Where an order's items ship from, as Shopify decides and lets a merchant change it: order routing at creation
 * (every item from the first location, in priority order, that stocks them all; else each item from the first that
 * stocks it), and `fulfillmentOrderMove`, `fulfillmentOrderSplit` and `fulfillmentOrderMerge` as Shopify's 2026-10
 * schema describes them.
 */

type Args = Record<string, unknown>;
type LineInput = { id: string; quantity: number };

const newLine = (lineItemId: string, quantity: number): StoreFulfillmentOrderLine => ({ id: gid("FulfillmentOrderLineItem", nextId()), lineItemId, totalQuantity: quantity, remainingQuantity: quantity });
const newFulfillmentOrder = (locationId: string, lines: StoreFulfillmentOrderLine[]): StoreFulfillmentOrder => ({ id: gid("FulfillmentOrder", nextId()), status: "OPEN", locationId, lines });

/** Order routing: the fulfillment orders a new order's shippable items get. */
export function routeToLocations(shop: StoreShop, items: readonly StoreLineItem[]): StoreFulfillmentOrder[] {
  if (items.length === 0) return [];
  const locations = shop.locations.map((location) => location.id);
  const whole = locations.find((location) => items.every((item) => stocks(shop, location, item.sku)));
  if (whole) return [newFulfillmentOrder(whole, items.map((item) => newLine(item.id, item.quantity)))];
  const byLocation = new Map<string, StoreFulfillmentOrderLine[]>();
  for (const item of items) {
    // An item no location stocks is still assigned somewhere, as Shopify does: to the first location.
    const location = locations.find((candidate) => stocks(shop, candidate, item.sku)) ?? locations[0]!;
    byLocation.set(location, [...(byLocation.get(location) ?? []), newLine(item.id, item.quantity)]);
  }
  return [...byLocation].map(([location, lines]) => newFulfillmentOrder(location, lines));
}

function findFulfillmentOrder(shop: StoreShop, id: unknown): { order: StoreOrder; fo: StoreFulfillmentOrder } | null {
  for (const order of shop.orders) {
    const fo = order.fulfillmentOrders.find((candidate) => candidate.id === id);
    if (fo) return { order, fo };
  }
  return null;
}

/** Takes quantities out of a fulfillment order's lines (what moves elsewhere); a line left with nothing goes. */
function takeOut(fo: StoreFulfillmentOrder, taken: readonly LineInput[]): void {
  for (const { id, quantity } of taken) {
    const line = fo.lines.find((candidate) => candidate.id === id)!;
    line.remainingQuantity -= quantity;
    line.totalQuantity -= quantity;
  }
  fo.lines = fo.lines.filter((line) => line.totalQuantity > 0);
}

/** Closed because its items went into another fulfillment order: Shopify hides these from `displayable` lists. */
function closeMergedAway(fo: StoreFulfillmentOrder): void {
  fo.status = "CLOSED";
  fo.lines = [];
  fo.hidden = true;
}

/** A fulfillment order left with nothing to fulfill closes; one whose every item went elsewhere is hidden too. */
function closeWhenDone(fo: StoreFulfillmentOrder): void {
  if (fo.lines.length === 0) closeMergedAway(fo);
  else if (fo.lines.every((line) => line.remainingQuantity === 0)) fo.status = "CLOSED";
}

/** The lines asked for, checked against the fulfillment order: each its own, more than none and at most what remains. */
function checkLines(fo: StoreFulfillmentOrder, asked: readonly LineInput[] | undefined): { lines: readonly LineInput[] } | { code: string; message: string } {
  const lines = asked ?? fo.lines.filter((line) => line.remainingQuantity > 0).map((line) => ({ id: line.id, quantity: line.remainingQuantity }));
  for (const { id, quantity } of lines) {
    const line = fo.lines.find((candidate) => candidate.id === id);
    if (!line) return { code: "INVALID_LINE_ITEM_QUANTITY", message: `Fulfillment order line item ${id} does not belong to the fulfillment order.` };
    if (quantity <= 0) return { code: "GREATER_THAN", message: "The fulfillment order line item quantity must be greater than 0." };
    if (quantity > line.remainingQuantity) return { code: "INVALID_LINE_ITEM_QUANTITY", message: `Quantity ${quantity} exceeds the ${line.remainingQuantity} remaining.` };
  }
  return { lines };
}

export function fulfillmentOrderMutations(shop: StoreShop, { touch }: { touch: (order: StoreOrder) => void }) {
  const view = (order: StoreOrder, fo: StoreFulfillmentOrder) => fulfillmentOrderView(shop, order, fo);
  return {
    fulfillmentOrderMove: (args: Args) => {
      const refuse = (message: string, field: string[] = ["id"], code: string | null = null) => ({ movedFulfillmentOrder: null, originalFulfillmentOrder: null, remainingFulfillmentOrder: null, userErrors: [{ field, message, code }] });
      const found = findFulfillmentOrder(shop, args.id);
      if (!found) return refuse("Fulfillment order does not exist.");
      const { order, fo } = found;
      const destination = String(args.newLocationId);
      if (!shop.locations.some((location) => location.id === destination)) return refuse("Location does not exist.", ["newLocationId"]);
      if (!fulfillable(fo)) return refuse("The fulfillment order is closed and cannot be moved.");
      if (fo.locationId === destination) return refuse("The fulfillment order is already assigned to that location.", ["newLocationId"]);
      const checked = checkLines(fo, args.fulfillmentOrderLineItems as LineInput[] | undefined);
      if ("code" in checked) return refuse(checked.message, ["fulfillmentOrderLineItems"]);
      for (const { id } of checked.lines) {
        const item = order.lineItems.find((candidate) => candidate.id === fo.lines.find((line) => line.id === id)!.lineItemId)!;
        if (!stocks(shop, destination, item.sku)) return refuse(`The destination location doesn't stock ${item.title}.`, ["newLocationId"]);
      }
      const movesEverything = fo.status === "OPEN" && fo.lines.every((line) => checked.lines.some((moved) => moved.id === line.id && moved.quantity === line.totalQuantity));
      const existing = order.fulfillmentOrders.find((candidate) => candidate !== fo && candidate.locationId === destination && candidate.status === "OPEN");
      let moved: StoreFulfillmentOrder;
      if (movesEverything && !existing) {
        // All of it, nothing fulfilled: the fulfillment order itself is assigned to the new location.
        fo.locationId = destination;
        moved = fo;
      } else {
        const movedLines = checked.lines.map(({ id, quantity }) => newLine(fo.lines.find((line) => line.id === id)!.lineItemId, quantity));
        takeOut(fo, checked.lines);
        closeWhenDone(fo);
        // The destination's open fulfillment order is closed and its items recreated with the moved ones in a new one.
        const carried = existing ? existing.lines.map((line) => newLine(line.lineItemId, line.remainingQuantity)) : [];
        if (existing) closeMergedAway(existing);
        moved = newFulfillmentOrder(destination, [...carried, ...movedLines]);
        order.fulfillmentOrders.push(moved);
      }
      touch(order);
      return { movedFulfillmentOrder: view(order, moved), originalFulfillmentOrder: view(order, fo), remainingFulfillmentOrder: null, userErrors: [] };
    },

    fulfillmentOrderSplit: (args: Args) => {
      const splits = args.fulfillmentOrderSplits as { fulfillmentOrderId: string; fulfillmentOrderLineItems: LineInput[] }[];
      const refuse = (index: number, message: string, code: string) => ({ fulfillmentOrderSplits: null, userErrors: [{ field: ["fulfillmentOrderSplits", String(index)], message, code }] });
      const checkedSplits: { order: StoreOrder; fo: StoreFulfillmentOrder; lines: readonly LineInput[] }[] = [];
      for (const [index, split] of splits.entries()) {
        const found = findFulfillmentOrder(shop, split.fulfillmentOrderId);
        if (!found) return refuse(index, "The fulfillment order could not be found.", "FULFILLMENT_ORDER_NOT_FOUND");
        if (split.fulfillmentOrderLineItems.length === 0) return refuse(index, "The fulfillment order must have at least one line item input to split.", "NO_LINE_ITEMS_PROVIDED_TO_SPLIT");
        if (!fulfillable(found.fo)) return refuse(index, "The fulfillment order is closed and cannot be split.", "INVALID_LINE_ITEM_QUANTITY");
        const checked = checkLines(found.fo, split.fulfillmentOrderLineItems);
        if ("code" in checked) return refuse(index, checked.message, checked.code);
        const remaining = found.fo.lines.reduce((sum, line) => sum + line.remainingQuantity, 0);
        if (checked.lines.reduce((sum, line) => sum + line.quantity, 0) >= remaining) return refuse(index, "Splitting out every remaining item leaves nothing to split from.", "INVALID_LINE_ITEM_QUANTITY");
        checkedSplits.push({ ...found, lines: checked.lines });
      }
      const results = checkedSplits.map(({ order, fo, lines }) => {
        const splitLines = lines.map(({ id, quantity }) => newLine(fo.lines.find((line) => line.id === id)!.lineItemId, quantity));
        takeOut(fo, lines);
        const remainder = newFulfillmentOrder(fo.locationId, splitLines);
        order.fulfillmentOrders.push(remainder);
        touch(order);
        return { __typename: "FulfillmentOrderSplitResult", fulfillmentOrder: view(order, fo), remainingFulfillmentOrder: view(order, remainder), replacementFulfillmentOrder: null };
      });
      return { fulfillmentOrderSplits: results, userErrors: [] };
    },

    fulfillmentOrderMerge: (args: Args) => {
      const inputs = args.fulfillmentOrderMergeInputs as { mergeIntents: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: LineInput[] }[] }[];
      const refuse = (index: number, message: string, code: string) => ({ fulfillmentOrderMerges: null, userErrors: [{ field: ["fulfillmentOrderMergeInputs", String(index)], message, code }] });
      const checkedMerges: { order: StoreOrder; intents: { fo: StoreFulfillmentOrder; lines: readonly LineInput[] }[] }[] = [];
      for (const [index, input] of inputs.entries()) {
        const intents: { fo: StoreFulfillmentOrder; lines: readonly LineInput[] }[] = [];
        let order: StoreOrder | null = null;
        for (const intent of input.mergeIntents) {
          const found = findFulfillmentOrder(shop, intent.fulfillmentOrderId);
          if (!found) return refuse(index, "The fulfillment order could not be found.", "FULFILLMENT_ORDER_NOT_FOUND");
          if (order && found.order !== order) return refuse(index, "Fulfillment orders of different orders cannot be merged.", "INVALID_LINE_ITEM_QUANTITY");
          if (!fulfillable(found.fo)) return refuse(index, "The fulfillment order is closed and cannot be merged.", "INVALID_LINE_ITEM_QUANTITY");
          const checked = checkLines(found.fo, intent.fulfillmentOrderLineItems);
          if ("code" in checked) return refuse(index, checked.message, checked.code);
          order = found.order;
          intents.push({ fo: found.fo, lines: checked.lines });
        }
        if (intents.length < 2) return refuse(index, "At least two fulfillment orders are needed to merge.", "INVALID_LINE_ITEM_QUANTITY");
        if (new Set(intents.map(({ fo }) => fo.locationId)).size > 1) return refuse(index, "Fulfillment orders at different locations cannot be merged.", "INVALID_LINE_ITEM_QUANTITY");
        checkedMerges.push({ order: order!, intents });
      }
      const results = checkedMerges.map(({ order, intents }) => {
        const merged = newFulfillmentOrder(intents[0]!.fo.locationId, []);
        for (const { fo, lines } of intents) {
          for (const { id, quantity } of lines) {
            const lineItemId = fo.lines.find((line) => line.id === id)!.lineItemId;
            const same = merged.lines.find((line) => line.lineItemId === lineItemId);
            if (same) {
              same.totalQuantity += quantity;
              same.remainingQuantity += quantity;
            } else merged.lines.push(newLine(lineItemId, quantity));
          }
          takeOut(fo, lines);
          closeWhenDone(fo);
        }
        order.fulfillmentOrders.push(merged);
        touch(order);
        return { __typename: "FulfillmentOrderMergeResult", fulfillmentOrder: view(order, merged) };
      });
      return { fulfillmentOrderMerges: results, userErrors: [] };
    },

    // An app's hold: nothing ships from the fulfillment order until every hold on it is released. Up to 10 holds per
    // app on one fulfillment order, each handle once (2026-10's rules).
    fulfillmentOrderHold: (args: Args) => {
      const refuse = (message: string, code: string | null, field: string[] = ["id"]) => ({ fulfillmentHold: null, fulfillmentOrder: null, remainingFulfillmentOrder: null, userErrors: [{ field, message, code }] });
      const found = findFulfillmentOrder(shop, args.id);
      if (!found) return refuse("The fulfillment order could not be found.", "FULFILLMENT_ORDER_NOT_FOUND");
      const { order, fo } = found;
      const input = args.fulfillmentHold as { reason: string; reasonNotes?: string | null; handle?: string | null };
      const holds = (fo.holds ??= []);
      if (!fulfillable(fo) && fo.status !== "ON_HOLD") return refuse("The fulfillment order cannot be put on hold: it is closed, cancelled or already fulfilled.", null);
      if (input.handle && holds.some((hold) => hold.handle === input.handle)) return refuse("A hold with this handle already exists on the fulfillment order.", "DUPLICATE_FULFILLMENT_HOLD_HANDLE", ["fulfillmentHold", "handle"]);
      if (holds.length >= 10) return refuse("The maximum number of holds on the fulfillment order has been reached.", "FULFILLMENT_ORDER_HOLD_LIMIT_REACHED");
      const hold = { id: gid("FulfillmentHold", nextId()), handle: input.handle ?? null, reason: input.reason, reasonNotes: input.reasonNotes ?? null };
      if (fo.status !== "ON_HOLD") fo.statusBeforeHold = fo.status;
      holds.push(hold);
      fo.status = "ON_HOLD";
      touch(order);
      return { fulfillmentHold: holdView(hold), fulfillmentOrder: view(order, fo), remainingFulfillmentOrder: null, userErrors: [] };
    },

    fulfillmentOrderReleaseHold: (args: Args) => {
      const found = findFulfillmentOrder(shop, args.id);
      if (!found) return { fulfillmentOrder: null, userErrors: [{ field: ["id"], message: "The fulfillment order could not be found.", code: "FULFILLMENT_ORDER_NOT_FOUND" }] };
      const { order, fo } = found;
      const ids = args.holdIds as string[] | null | undefined;
      fo.holds = (fo.holds ?? []).filter((hold) => ids && !ids.includes(hold.id));
      if (fo.holds.length === 0 && fo.status === "ON_HOLD") fo.status = fo.statusBeforeHold ?? "OPEN";
      touch(order);
      return { fulfillmentOrder: view(order, fo), userErrors: [] };
    },
  };
}

export const holdView = (hold: StoreFulfillmentHold) => ({ __typename: "FulfillmentHold", ...hold, heldByRequestingApp: true, heldBy: null, displayReason: hold.reasonNotes ?? hold.reason });
