import {
  gid,
  nextId,
  type DispositionType,
  type StoreOrder,
  type StoreReturn,
  type StoreReturnLine,
  type StoreReverseDelivery,
  type StoreReverseFulfillmentOrder,
  type StoreShop,
} from "./model";
import { connection, GRAMS_PER, lineItemView, locationView, orderView } from "./views";

type Args = Record<string, unknown>;
type ReturnUserError = { field: string[] | null; message: string; code: string };


/** Shopify takes a label's file from an address it can fetch: an absolute http(s) URL. */
function isLabelFileUrl(value: unknown): boolean {
  if (typeof value !== "string" || value.length > 2048) return false;
  try {
    return ["http:", "https:"].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The returns topics Shopify sends to a subscribed app, and what each one is about. */
export type ReturnTopic = "returns/request" | "returns/approve" | "returns/decline" | "returns/cancel" | "returns/close" | "returns/process";
export type ReturnEvent = { topic: ReturnTopic; order: StoreOrder; return: StoreReturn };

export const returnsOf = (order: StoreOrder): StoreReturn[] => (order.returns ??= []);

/**
 * Every fulfillment line of an order with its FulfillmentLineItem id. A store saved before returns existed has
 * lines without one: each gets its id the first time it is asked for, and keeps it.
 */
export function fulfillmentLines(order: StoreOrder) {
  return order.fulfillments.flatMap((fulfillment) =>
    fulfillment.status === "SUCCESS"
      ? fulfillment.lines.map((line) => {
          line.id ??= gid("FulfillmentLineItem", nextId());
          return { id: line.id, lineItemId: line.lineItemId, quantity: line.quantity, fulfillment };
        })
      : [],
  );
}

export function findReturn(shop: StoreShop, id: unknown): { order: StoreOrder; ret: StoreReturn } | undefined {
  for (const order of shop.orders) {
    const ret = returnsOf(order).find((candidate) => candidate.id === id);
    if (ret) return { order, ret };
  }
  return undefined;
}

function findReverseFulfillmentOrder(shop: StoreShop, id: unknown) {
  for (const order of shop.orders) {
    for (const ret of returnsOf(order)) {
      const rfo = ret.reverseFulfillmentOrders.find((candidate) => candidate.id === id);
      if (rfo) return { order, ret, rfo };
    }
  }
  return undefined;
}

function findReverseDelivery(shop: StoreShop, id: unknown) {
  for (const order of shop.orders) {
    for (const ret of returnsOf(order)) {
      for (const rfo of ret.reverseFulfillmentOrders) {
        const delivery = rfo.deliveries.find((candidate) => candidate.id === id);
        if (delivery) return { order, ret, rfo, delivery };
      }
    }
  }
  return undefined;
}

/** Shopify's summary of an order's returns (Order.returnStatus). */
export function orderReturnStatus(order: StoreOrder): string {
  const live = returnsOf(order).filter((ret) => ret.status !== "CANCELED" && ret.status !== "DECLINED");
  if (live.length === 0) return returnsOf(order).some((ret) => ret.status === "DECLINED") ? "RETURN_FAILED" : "NO_RETURN";
  if (live.some((ret) => ret.status === "REQUESTED")) return "RETURN_REQUESTED";
  if (live.some((ret) => ret.status === "OPEN")) return "IN_PROGRESS";
  return live.every((ret) => ret.lines.every((line) => line.processedQuantity >= line.quantity)) ? "INSPECTION_COMPLETE" : "RETURNED";
}

function dispositionView(shop: StoreShop, disposition: StoreReverseFulfillmentOrder["lines"][number]["dispositions"][number]) {
  return {
    __typename: "ReverseFulfillmentOrderDisposition",
    id: disposition.id,
    type: disposition.type,
    quantity: disposition.quantity,
    createdAt: disposition.createdAt,
    location: disposition.locationId ? locationView(shop, disposition.locationId) : null,
  };
}

function fulfillmentLineItemView(order: StoreOrder, fulfillmentLineItemId: string) {
  const line = fulfillmentLines(order).find((candidate) => candidate.id === fulfillmentLineItemId)!;
  const item = order.lineItems.find((candidate) => candidate.id === line.lineItemId)!;
  return {
    __typename: "FulfillmentLineItem",
    id: line.id,
    quantity: line.quantity,
    lineItem: lineItemView(item, order),
    originalTotalSet: { shopMoney: { amount: (item.unitPrice * line.quantity).toFixed(2), currencyCode: "INR" }, presentmentMoney: { amount: (item.unitPrice * line.quantity).toFixed(2), currencyCode: "INR" } },
    discountedTotalSet: {
      shopMoney: { amount: (item.discountedUnitPrice * line.quantity).toFixed(2), currencyCode: "INR" },
      presentmentMoney: { amount: (item.discountedUnitPrice * line.quantity).toFixed(2), currencyCode: "INR" },
    },
  };
}

/**
 * Shopify maps the legacy reason a return was opened with (`returnReason`, deprecated) onto its standard reason
 * taxonomy; the store does the same with the enum's own words ("SIZE_TOO_SMALL" → size-too-small, "Size too small").
 * An unknown reason has no definition.
 */
function reasonDefinitionOf(reason: string) {
  if (!reason || reason === "UNKNOWN") return null;
  const words = reason.toLowerCase().split("_");
  return { __typename: "ReturnReasonDefinition", id: `gid://shopify/ReturnReasonDefinition/${reason}`, handle: words.join("-"), name: `${words[0]![0]!.toUpperCase()}${words.join(" ").slice(1)}`, deleted: false };
}

function returnLineView(order: StoreOrder, line: StoreReturnLine) {
  const item = order.lineItems.find((candidate) => candidate.id === line.lineItemId)!;
  const unprocessed = line.quantity - line.processedQuantity;
  return {
    __typename: "ReturnLineItem",
    id: line.id,
    quantity: line.quantity,
    processedQuantity: line.processedQuantity,
    unprocessedQuantity: unprocessed,
    processableQuantity: unprocessed,
    refundableQuantity: line.quantity,
    refundedQuantity: 0,
    returnReason: line.returnReason,
    returnReasonNote: line.returnReasonNote,
    returnReasonDefinition: reasonDefinitionOf(line.returnReason),
    customerNote: line.customerNote,
    restockingFee: null,
    totalWeight: item.weight ? { unit: "GRAMS", value: Math.round(item.weight.value * GRAMS_PER[item.weight.unit]! * line.quantity) } : null,
    fulfillmentLineItem: () => fulfillmentLineItemView(order, line.fulfillmentLineItemId),
    withCodeDiscountedTotalPriceSet: {
      shopMoney: { amount: (item.discountedUnitPrice * line.quantity).toFixed(2), currencyCode: "INR" },
      presentmentMoney: { amount: (item.discountedUnitPrice * line.quantity).toFixed(2), currencyCode: "INR" },
    },
  };
}

export function reverseDeliveryView(shop: StoreShop, order: StoreOrder, ret: StoreReturn, rfo: StoreReverseFulfillmentOrder, delivery: StoreReverseDelivery): Record<string, unknown> {
  return {
    __typename: "ReverseDelivery",
    id: delivery.id,
    deliverable: {
      __typename: "ReverseDeliveryShippingDeliverable",
      tracking: delivery.tracking && { __typename: "ReverseDeliveryTrackingV2", number: delivery.tracking.number, url: delivery.tracking.url, carrierName: null },
      label: delivery.label && { __typename: "ReverseDeliveryLabelV2", publicFileUrl: delivery.label.fileUrl, createdAt: delivery.label.createdAt, updatedAt: delivery.label.updatedAt },
    },
    reverseDeliveryLineItems: (args: Args) =>
      connection(
        delivery.lines.map((line) => {
          const rfoLine = rfo.lines.find((candidate) => candidate.id === line.reverseFulfillmentOrderLineId)!;
          return {
            __typename: "ReverseDeliveryLineItem",
            id: line.id,
            quantity: line.quantity,
            dispositions: [],
            reverseFulfillmentOrderLineItem: reverseFulfillmentOrderLineView(shop, order, ret, rfoLine),
          };
        }),
        args,
      ),
    reverseFulfillmentOrder: () => reverseFulfillmentOrderView(shop, order, ret, rfo),
  };
}

function reverseFulfillmentOrderLineView(shop: StoreShop, order: StoreOrder, ret: StoreReturn, line: StoreReverseFulfillmentOrder["lines"][number]) {
  const returnLine = ret.lines.find((candidate) => candidate.id === line.returnLineId)!;
  return {
    __typename: "ReverseFulfillmentOrderLineItem",
    id: line.id,
    totalQuantity: line.totalQuantity,
    dispositions: line.dispositions.map((disposition) => dispositionView(shop, disposition)),
    fulfillmentLineItem: () => fulfillmentLineItemView(order, returnLine.fulfillmentLineItemId),
  };
}

export function reverseFulfillmentOrderView(shop: StoreShop, order: StoreOrder, ret: StoreReturn, rfo: StoreReverseFulfillmentOrder): Record<string, unknown> {
  return {
    __typename: "ReverseFulfillmentOrder",
    id: rfo.id,
    status: rfo.status,
    thirdPartyConfirmation: null,
    lineItems: (args: Args) => connection(rfo.lines.map((line) => reverseFulfillmentOrderLineView(shop, order, ret, line)), args),
    reverseDeliveries: (args: Args) => connection(rfo.deliveries.map((delivery) => reverseDeliveryView(shop, order, ret, rfo, delivery)), args),
    order: () => orderView(shop, order),
  };
}

export function returnView(shop: StoreShop, order: StoreOrder, ret: StoreReturn): Record<string, unknown> {
  return {
    __typename: "Return",
    id: ret.id,
    name: ret.name,
    status: ret.status,
    createdAt: ret.createdAt,
    requestApprovedAt: ret.requestApprovedAt,
    closedAt: ret.closedAt,
    decline: ret.decline && { __typename: "ReturnDecline", reason: ret.decline.reason, note: ret.decline.note },
    totalQuantity: ret.lines.reduce((sum, line) => sum + line.quantity, 0),
    returnShippingFees: [],
    staffMember: null,
    returnLineItems: (args: Args) => connection(ret.lines.map((line) => returnLineView(order, line)), args),
    exchangeLineItems: (args: Args) => connection([], args),
    refunds: (args: Args) => connection([], args),
    transactions: (args: Args) => connection([], args),
    reverseFulfillmentOrders: (args: Args) => connection(ret.reverseFulfillmentOrders.map((rfo) => reverseFulfillmentOrderView(shop, order, ret, rfo)), args),
    order: () => orderView(shop, order),
  };
}

/** Shopify's return search, the part the app uses: `status:open`, `status:requested`, `-status:closed`, … */
export function matchesReturnSearch(ret: StoreReturn, query: string | undefined): boolean {
  if (!query) return true;
  return query.split(/\s+/).filter(Boolean).every((term) => {
    const negated = term.startsWith("-");
    const [key, value] = (negated ? term.slice(1) : term).split(":");
    if (key?.toLowerCase() !== "status" || !value) return true;
    const matches = value.split(",").some((status) => status.toUpperCase() === ret.status || (status.toUpperCase() === "CANCELLED" && ret.status === "CANCELED"));
    return negated ? !matches : matches;
  });
}

interface ReturnLineInput {
  fulfillmentLineItemId: string;
  quantity: number;
  returnReason?: string;
  returnReasonNote?: string;
  customerNote?: string;
}

/**
 * The Returns API as Shopify's 2026-10 schema defines it, for what Dakiya and a person in the local admin do: a
 * shopper's request (`returnRequest`) approved or declined by the merchant, a return the merchant opens directly
 * (`returnCreate`, which sends no webhook), cancelling and closing, the reverse fulfillment order Shopify makes when
 * a return opens, the reverse delivery an app attaches with its tracking, and processing what came back
 * (`returnProcess` with dispositions; never a refund here). Each change Shopify announces goes out as its
 * returns/* webhook.
 */
export function returnMutations(shop: StoreShop, { now, emit }: { now: () => Date; emit: (event: ReturnEvent) => void }) {
  const stamp = () => now().toISOString().replace(/\.\d{3}Z$/, "Z");
  const touch = (order: StoreOrder) => (order.updatedAt = now().toISOString());
  const fail = (payloadKey: string, message: string, field: string[] | null, code = "INVALID") => ({ [payloadKey]: null, userErrors: [{ field, message, code }] satisfies ReturnUserError[] });

  /** Checks requested lines against what was fulfilled and not already in a live return. */
  function buildLines(order: StoreOrder, inputs: ReturnLineInput[], field: string): StoreReturnLine[] | ReturnUserError {
    if (inputs.length === 0) return { field: ["input", field], message: "Return must have at least one line item.", code: "BLANK" };
    const fulfilled = fulfillmentLines(order);
    const lines: StoreReturnLine[] = [];
    for (const [index, input] of inputs.entries()) {
      const line = fulfilled.find((candidate) => candidate.id === input.fulfillmentLineItemId);
      if (!line) return { field: ["input", field, String(index), "fulfillmentLineItemId"], message: "Fulfillment line item does not exist on this order.", code: "NOT_FOUND" };
      if (!Number.isInteger(input.quantity) || input.quantity < 1) return { field: ["input", field, String(index), "quantity"], message: "Quantity must be greater than 0.", code: "GREATER_THAN" };
      const alreadyReturning = returnsOf(order)
        .filter((ret) => ret.status !== "CANCELED" && ret.status !== "DECLINED")
        .flatMap((ret) => ret.lines)
        .filter((existing) => existing.fulfillmentLineItemId === line.id)
        .reduce((sum, existing) => sum + existing.quantity, 0);
      if (input.quantity > line.quantity - alreadyReturning) {
        return { field: ["input", field, String(index), "quantity"], message: `Quantity ${input.quantity} exceeds the ${line.quantity - alreadyReturning} that can be returned.`, code: "INVALID" };
      }
      if (input.customerNote && input.customerNote.length > 300) return { field: ["input", field, String(index), "customerNote"], message: "Customer note is too long (maximum is 300 characters).", code: "TOO_LONG" };
      lines.push({
        id: gid("ReturnLineItem", nextId()),
        fulfillmentLineItemId: line.id,
        lineItemId: line.lineItemId,
        quantity: input.quantity,
        processedQuantity: 0,
        returnReason: input.returnReason ?? "UNKNOWN",
        returnReasonNote: input.returnReasonNote ?? "",
        customerNote: input.customerNote ?? null,
      });
    }
    return lines;
  }

  function open(ret: StoreReturn) {
    ret.status = "OPEN";
    ret.reverseFulfillmentOrders.push({
      id: gid("ReverseFulfillmentOrder", nextId()),
      status: "OPEN",
      lines: ret.lines.map((line) => ({ id: gid("ReverseFulfillmentOrderLineItem", nextId()), returnLineId: line.id, totalQuantity: line.quantity, dispositions: [] })),
      deliveries: [],
    });
  }

  function newReturn(order: StoreOrder, lines: StoreReturnLine[], createdAt: string): StoreReturn {
    const ret: StoreReturn = {
      id: gid("Return", nextId()),
      name: `${order.name}-R${returnsOf(order).length + 1}`,
      status: "REQUESTED",
      createdAt,
      requestApprovedAt: null,
      closedAt: null,
      decline: null,
      lines,
      reverseFulfillmentOrders: [],
    };
    returnsOf(order).push(ret);
    touch(order);
    return ret;
  }

  function dispose(order: StoreOrder, ret: StoreReturn, inputs: { reverseFulfillmentOrderLineItemId: string; quantity: number; dispositionType: DispositionType; locationId?: string | null }[], field: string[]): ReturnUserError | null {
    for (const [index, input] of inputs.entries()) {
      const rfoLine = ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.lines).find((line) => line.id === input.reverseFulfillmentOrderLineItemId);
      if (!rfoLine) return { field: [...field, String(index), "reverseFulfillmentOrderLineItemId"], message: "Reverse fulfillment order line item does not exist.", code: "NOT_FOUND" };
      const disposed = rfoLine.dispositions.reduce((sum, disposition) => sum + disposition.quantity, 0);
      if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > rfoLine.totalQuantity - disposed) {
        return { field: [...field, String(index), "quantity"], message: `Quantity must be between 1 and the ${rfoLine.totalQuantity - disposed} not yet disposed.`, code: "INVALID" };
      }
      if (input.dispositionType === "RESTOCKED" && !input.locationId) return { field: [...field, String(index), "locationId"], message: "A location is required to restock items.", code: "BLANK" };
      if (input.locationId && !shop.locations.some((location) => location.id === input.locationId)) return { field: [...field, String(index), "locationId"], message: "Location does not exist.", code: "NOT_FOUND" };
    }
    for (const input of inputs) {
      const rfoLine = ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.lines).find((line) => line.id === input.reverseFulfillmentOrderLineItemId)!;
      rfoLine.dispositions.push({ id: gid("ReverseFulfillmentOrderDisposition", nextId()), type: input.dispositionType, quantity: input.quantity, locationId: input.locationId ?? null, createdAt: stamp() });
    }
    touch(order);
    return null;
  }

  return {
    return: (args: Args) => {
      const found = findReturn(shop, args.id);
      return found ? returnView(shop, found.order, found.ret) : null;
    },
    reverseFulfillmentOrder: (args: Args) => {
      const found = findReverseFulfillmentOrder(shop, args.id);
      return found ? reverseFulfillmentOrderView(shop, found.order, found.ret, found.rfo) : null;
    },
    reverseDelivery: (args: Args) => {
      const found = findReverseDelivery(shop, args.id);
      return found ? reverseDeliveryView(shop, found.order, found.ret, found.rfo, found.delivery) : null;
    },

    returnRequest: (args: Args) => {
      const input = args.input as { orderId: string; returnLineItems: ReturnLineInput[] };
      const order = shop.orders.find((candidate) => candidate.id === input.orderId);
      if (!order) return fail("return", "Order does not exist.", ["input", "orderId"], "NOT_FOUND");
      const lines = buildLines(order, input.returnLineItems, "returnLineItems");
      if (!Array.isArray(lines)) return { return: null, userErrors: [lines] };
      const ret = newReturn(order, lines, stamp());
      emit({ topic: "returns/request", order, return: ret });
      return { return: returnView(shop, order, ret), userErrors: [] };
    },

    returnCreate: (args: Args) => {
      const input = args.returnInput as { orderId: string; returnLineItems: ReturnLineInput[]; requestedAt?: string };
      const order = shop.orders.find((candidate) => candidate.id === input.orderId);
      if (!order) return fail("return", "Order does not exist.", ["returnInput", "orderId"], "NOT_FOUND");
      const lines = buildLines(order, input.returnLineItems, "returnLineItems");
      if (!Array.isArray(lines)) return { return: null, userErrors: [{ ...lines, field: lines.field && ["returnInput", ...lines.field.slice(1)] }] };
      const ret = newReturn(order, lines, input.requestedAt && Date.parse(input.requestedAt) <= now().getTime() ? new Date(input.requestedAt).toISOString().replace(/\.\d{3}Z$/, "Z") : stamp());
      open(ret);
      // No returns/* topic announces a return the merchant opened directly.
      return { return: returnView(shop, order, ret), userErrors: [] };
    },

    returnApproveRequest: (args: Args) => {
      const input = args.input as { id: string };
      const found = findReturn(shop, input.id);
      if (!found) return fail("return", "Return does not exist.", ["input", "id"], "NOT_FOUND");
      if (found.ret.status !== "REQUESTED") return fail("return", "Return is not approvable. Only returns with status REQUESTED can be approved.", ["input", "id"], "INVALID_STATE");
      found.ret.requestApprovedAt = stamp();
      open(found.ret);
      touch(found.order);
      emit({ topic: "returns/approve", order: found.order, return: found.ret });
      return { return: returnView(shop, found.order, found.ret), userErrors: [] };
    },

    returnDeclineRequest: (args: Args) => {
      const input = args.input as { id: string; declineReason: string; declineNote?: string };
      const found = findReturn(shop, input.id);
      if (!found) return fail("return", "Return does not exist.", ["input", "id"], "NOT_FOUND");
      if (found.ret.status !== "REQUESTED") return fail("return", "Return is not declinable. Only returns with status REQUESTED can be declined.", ["input", "id"], "INVALID_STATE");
      if (input.declineNote && input.declineNote.length > 500) return fail("return", "Decline note is too long (maximum is 500 characters).", ["input", "declineNote"], "TOO_LONG");
      found.ret.status = "DECLINED";
      found.ret.decline = { reason: input.declineReason, note: input.declineNote ?? null };
      touch(found.order);
      emit({ topic: "returns/decline", order: found.order, return: found.ret });
      return { return: returnView(shop, found.order, found.ret), userErrors: [] };
    },

    returnCancel: (args: Args) => {
      const found = findReturn(shop, args.id);
      if (!found) return fail("return", "Return does not exist.", ["id"], "NOT_FOUND");
      const { ret } = found;
      if (ret.status !== "OPEN" && ret.status !== "REQUESTED") return fail("return", `Return is not cancelable: its status is ${ret.status}.`, ["id"], "INVALID_STATE");
      if (ret.lines.some((line) => line.processedQuantity > 0) || ret.reverseFulfillmentOrders.some((rfo) => rfo.lines.some((line) => line.dispositions.length > 0))) {
        return fail("return", "Return is not cancelable: some of its items were already processed.", ["id"], "INVALID_STATE");
      }
      ret.status = "CANCELED";
      for (const rfo of ret.reverseFulfillmentOrders) rfo.status = "CANCELED";
      touch(found.order);
      emit({ topic: "returns/cancel", order: found.order, return: ret });
      return { return: returnView(shop, found.order, ret), userErrors: [] };
    },

    returnClose: (args: Args) => {
      const found = findReturn(shop, args.id);
      if (!found) return fail("return", "Return does not exist.", ["id"], "NOT_FOUND");
      if (found.ret.status !== "OPEN") return fail("return", `Return is not closable: its status is ${found.ret.status}.`, ["id"], "INVALID_STATE");
      found.ret.status = "CLOSED";
      found.ret.closedAt = stamp();
      for (const rfo of found.ret.reverseFulfillmentOrders) rfo.status = "CLOSED";
      touch(found.order);
      emit({ topic: "returns/close", order: found.order, return: found.ret });
      return { return: returnView(shop, found.order, found.ret), userErrors: [] };
    },

    returnProcess: (args: Args) => {
      const input = args.input as {
        returnId: string;
        returnLineItems?: { id: string; quantity: number; dispositions?: { reverseFulfillmentOrderLineItemId: string; quantity: number; dispositionType: DispositionType; locationId?: string }[] }[];
        financialTransfer?: unknown;
        refundShipping?: unknown;
      };
      const found = findReturn(shop, input.returnId);
      if (!found) return fail("return", "Return does not exist.", ["input", "returnId"], "NOT_FOUND");
      const { order, ret } = found;
      if (ret.status !== "OPEN") return fail("return", `Return cannot be processed: its status is ${ret.status}.`, ["input", "returnId"], "INVALID_STATE");
      const items = input.returnLineItems ?? [];
      if (items.length === 0) return fail("return", "Nothing to process: name at least one return line item.", ["input", "returnLineItems"], "BLANK");
      for (const [index, item] of items.entries()) {
        const line = ret.lines.find((candidate) => candidate.id === item.id);
        if (!line) return fail("return", "Return line item does not exist on this return.", ["input", "returnLineItems", String(index), "id"], "NOT_FOUND");
        if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > line.quantity - line.processedQuantity) {
          return fail("return", `Quantity must be between 1 and the ${line.quantity - line.processedQuantity} not yet processed.`, ["input", "returnLineItems", String(index), "quantity"], "INVALID");
        }
        const disposed = (item.dispositions ?? []).reduce((sum, disposition) => sum + disposition.quantity, 0);
        if (item.dispositions && disposed !== item.quantity) return fail("return", "Dispositions must add up to the quantity processed.", ["input", "returnLineItems", String(index), "dispositions"], "INVALID");
      }
      const dispositions = items.flatMap((item) => item.dispositions ?? []);
      const refused = dispose(order, ret, dispositions, ["input", "returnLineItems"]);
      if (refused) return { return: null, userErrors: [refused] };
      for (const item of items) ret.lines.find((line) => line.id === item.id)!.processedQuantity += item.quantity;
      if (ret.lines.every((line) => line.processedQuantity >= line.quantity)) {
        ret.status = "CLOSED";
        ret.closedAt = stamp();
        for (const rfo of ret.reverseFulfillmentOrders) rfo.status = "CLOSED";
      }
      touch(order);
      emit({ topic: "returns/process", order, return: ret });
      return { return: returnView(shop, order, ret), userErrors: [] };
    },

    reverseFulfillmentOrderDispose: (args: Args) => {
      const inputs = args.dispositionInputs as { reverseFulfillmentOrderLineItemId: string; quantity: number; dispositionType: DispositionType; locationId?: string }[];
      const owner = inputs[0] && findReverseFulfillmentOrderByLine(shop, inputs[0].reverseFulfillmentOrderLineItemId);
      if (!owner) return { reverseFulfillmentOrderLineItems: null, userErrors: [{ field: ["dispositionInputs", "0", "reverseFulfillmentOrderLineItemId"], message: "Reverse fulfillment order line item does not exist.", code: "NOT_FOUND" }] };
      const refused = dispose(owner.order, owner.ret, inputs, ["dispositionInputs"]);
      if (refused) return { reverseFulfillmentOrderLineItems: null, userErrors: [refused] };
      const lines = owner.ret.reverseFulfillmentOrders.flatMap((rfo) => rfo.lines).filter((line) => inputs.some((input) => input.reverseFulfillmentOrderLineItemId === line.id));
      return { reverseFulfillmentOrderLineItems: lines.map((line) => reverseFulfillmentOrderLineView(shop, owner.order, owner.ret, line)), userErrors: [] };
    },

    reverseDeliveryCreateWithShipping: (args: Args) => {
      const found = findReverseFulfillmentOrder(shop, args.reverseFulfillmentOrderId);
      if (!found) return fail("reverseDelivery", "Reverse fulfillment order does not exist.", ["reverseFulfillmentOrderId"], "NOT_FOUND");
      const { order, ret, rfo } = found;
      if (rfo.status !== "OPEN") return fail("reverseDelivery", `The reverse fulfillment order is ${rfo.status.toLowerCase()}: no delivery can be added.`, ["reverseFulfillmentOrderId"], "INVALID_STATE");
      const inputs = args.reverseDeliveryLineItems as { reverseFulfillmentOrderLineItemId: string; quantity: number }[];
      if (inputs.length === 0) return fail("reverseDelivery", "A reverse delivery needs at least one line item.", ["reverseDeliveryLineItems"], "BLANK");
      for (const [index, input] of inputs.entries()) {
        const line = rfo.lines.find((candidate) => candidate.id === input.reverseFulfillmentOrderLineItemId);
        if (!line) return fail("reverseDelivery", "Reverse fulfillment order line item does not belong to this reverse fulfillment order.", ["reverseDeliveryLineItems", String(index), "reverseFulfillmentOrderLineItemId"], "NOT_FOUND");
        const delivered = rfo.deliveries.flatMap((delivery) => delivery.lines).filter((deliveryLine) => deliveryLine.reverseFulfillmentOrderLineId === line.id).reduce((sum, deliveryLine) => sum + deliveryLine.quantity, 0);
        if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > line.totalQuantity - delivered) {
          return fail("reverseDelivery", `Quantity must be between 1 and the ${line.totalQuantity - delivered} not yet in a delivery.`, ["reverseDeliveryLineItems", String(index), "quantity"], "INVALID");
        }
      }
      const tracking = args.trackingInput as { number?: string | null; url?: string | null } | null | undefined;
      if (tracking?.url && !tracking.number) return fail("reverseDelivery", "A tracking URL requires a tracking number.", ["trackingInput", "url"], "BLANK");
      const label = args.labelInput as { fileUrl: string } | null | undefined;
      if (label && !isLabelFileUrl(label.fileUrl)) return fail("reverseDelivery", "File url is invalid.", ["labelInput", "fileUrl"], "INVALID");
      const delivery: StoreReverseDelivery = {
        id: gid("ReverseDelivery", nextId()),
        lines: inputs.map((input) => ({ id: gid("ReverseDeliveryLineItem", nextId()), reverseFulfillmentOrderLineId: input.reverseFulfillmentOrderLineItemId, quantity: input.quantity })),
        tracking: tracking && (tracking.number || tracking.url) ? { number: tracking.number ?? null, url: tracking.url ?? null } : null,
        label: label ? { fileUrl: label.fileUrl, createdAt: stamp(), updatedAt: stamp() } : null,
        notifyCustomer: Boolean(args.notifyCustomer ?? true),
      };
      rfo.deliveries.push(delivery);
      touch(order);
      return { reverseDelivery: reverseDeliveryView(shop, order, ret, rfo, delivery), userErrors: [] };
    },

    reverseDeliveryShippingUpdate: (args: Args) => {
      const found = findReverseDelivery(shop, args.reverseDeliveryId);
      if (!found) return fail("reverseDelivery", "Reverse delivery does not exist.", ["reverseDeliveryId"], "NOT_FOUND");
      const tracking = args.trackingInput as { number?: string | null; url?: string | null } | null | undefined;
      if (tracking) {
        const number = tracking.number ?? found.delivery.tracking?.number ?? null;
        if (tracking.url && !number) return fail("reverseDelivery", "A tracking URL requires a tracking number.", ["trackingInput", "url"], "BLANK");
        found.delivery.tracking = { number, url: tracking.url ?? found.delivery.tracking?.url ?? null };
      }
      const label = args.labelInput as { fileUrl: string } | null | undefined;
      if (label && !isLabelFileUrl(label.fileUrl)) return fail("reverseDelivery", "File url is invalid.", ["labelInput", "fileUrl"], "INVALID");
      if (label) found.delivery.label = { fileUrl: label.fileUrl, createdAt: found.delivery.label?.createdAt ?? stamp(), updatedAt: stamp() };
      if (args.notifyCustomer) found.delivery.notifyCustomer = true;
      touch(found.order);
      return { reverseDelivery: reverseDeliveryView(shop, found.order, found.ret, found.rfo, found.delivery), userErrors: [] };
    },
  };
}

function findReverseFulfillmentOrderByLine(shop: StoreShop, lineId: string) {
  for (const order of shop.orders) {
    for (const ret of returnsOf(order)) {
      if (ret.reverseFulfillmentOrders.some((rfo) => rfo.lines.some((line) => line.id === lineId))) return { order, ret };
    }
  }
  return undefined;
}
