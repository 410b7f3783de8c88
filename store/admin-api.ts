import {
  execute,
  getNamedType,
  getOperationAST,
  GraphQLError,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  parse,
  validate,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from "graphql";
import { loadAdminSchema } from "../graphql/admin-schema";
import { gid, nextId, type StoreOrder, type StoreShop } from "./model";
import { flowMutations } from "./flow";
import { fulfillmentOrderMutations } from "./fulfillment-orders";
import { orderMutations } from "./order-mutations";
import { orderPaymentMutations } from "./order-payments";
import { returnMutations, type ReturnEvent } from "./returns";
import { connection, displayFulfillmentStatus, fulfillmentOrderView, fulfillmentView, locationView, orderTotals, orderView } from "./views";

type Args = Record<string, unknown>;

export const SINGLE_QUERY_MAX_COST = 1000;

export interface ThrottleSettings {
  maximumAvailable: number;
  restoreRate: number;
}

/**
 * Published cost rules: scalars and enums 0, objects 1, connections 2 + first × node cost,
 * lists with `first` multiplied, each mutation 10.
 */
export function requestedCost(schema: GraphQLSchema, document: DocumentNode, { variables = {}, operationName }: { variables?: Args; operationName?: string } = {}): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return 0;
  const defaults: Args = {};
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue) defaults[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  }
  const vars = { ...defaults, ...variables };
  const argument = (field: FieldNode, name: string) => {
    const node = field.arguments?.find((arg) => arg.name.value === name);
    return node ? valueFromASTUntyped(node.value, vars) : undefined;
  };

  const selectionCost = (selectionSet: SelectionSetNode | undefined, type: GraphQLOutputType): number => {
    if (!selectionSet) return 0;
    const named = getNamedType(type);
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : named;
        total += selectionCost(selection.selectionSet, (condition ?? named) as GraphQLOutputType);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) total += selectionCost(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) as GraphQLOutputType);
      } else {
        total += fieldCost(selection, named);
      }
    }
    return total;
  };

  const fieldCost = (field: FieldNode, parent: ReturnType<typeof getNamedType>): number => {
    if (!parent || field.name.value.startsWith("__") || !(isObjectType(parent) || isAbstractType(parent) || "getFields" in parent)) return 0;
    const definition = (parent as GraphQLObjectType).getFields?.()[field.name.value];
    if (!definition) return 0;
    const fieldType = definition.type;
    const named = getNamedType(fieldType);
    if (isLeafType(named)) return 0;
    const first = Number(argument(field, "first") ?? argument(field, "last") ?? NaN);
    if (named.name.endsWith("Connection")) {
      const pageSize = Number.isNaN(first) ? 1 : first;
      let nodeCost = 0;
      for (const selection of field.selectionSet?.selections ?? []) {
        if (selection.kind !== Kind.FIELD) continue;
        const connectionField = (named as GraphQLObjectType).getFields()[selection.name.value];
        if (!connectionField) continue;
        if (selection.name.value === "nodes") nodeCost = Math.max(nodeCost, 1 + selectionCost(selection.selectionSet, connectionField.type));
        if (selection.name.value === "edges") {
          const edgeType = getNamedType(connectionField.type) as GraphQLObjectType;
          for (const edgeSelection of selection.selectionSet?.selections ?? []) {
            if (edgeSelection.kind === Kind.FIELD && edgeSelection.name.value === "node") {
              nodeCost = Math.max(nodeCost, 1 + selectionCost(edgeSelection.selectionSet, edgeType.getFields().node!.type));
            }
          }
        }
      }
      return 2 + pageSize * nodeCost;
    }
    const unwrapped = isNonNullType(fieldType) ? fieldType.ofType : fieldType;
    const child = 1 + selectionCost(field.selectionSet, fieldType);
    return isListType(unwrapped) && !Number.isNaN(first) ? first * child : child;
  };

  if (operation.operation === "mutation") return 10 * operation.selectionSet.selections.length;
  const root = schema.getQueryType()!;
  return operation.selectionSet.selections.reduce(
    (sum, selection) => sum + (selection.kind === Kind.FIELD ? fieldCost(selection, root) : selectionCost({ kind: Kind.SELECTION_SET, selections: [selection] }, root)),
    0,
  );
}

/**
 * The cost of what an answer actually held: the published rules, with each connection and list counted by the
 * nodes returned rather than by `first`. Mutations cost what they requested.
 */
export function actualCost(schema: GraphQLSchema, document: DocumentNode, data: Record<string, unknown>, operationName?: string): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName),
  );
  if (!operation || operation.kind !== Kind.OPERATION_DEFINITION) return 0;
  if (operation.operation === "mutation") return 10 * operation.selectionSet.selections.length;

  const selectionCost = (selectionSet: SelectionSetNode | undefined, type: GraphQLOutputType, value: unknown): number => {
    if (!selectionSet || !value || typeof value !== "object") return 0;
    const named = getNamedType(type);
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : named;
        total += selectionCost(selection.selectionSet, (condition ?? named) as GraphQLOutputType, value);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        if (fragment) total += selectionCost(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) as GraphQLOutputType, value);
      } else {
        total += fieldCost(selection, named, (value as Record<string, unknown>)[selection.alias?.value ?? selection.name.value]);
      }
    }
    return total;
  };

  const fieldCost = (field: FieldNode, parent: ReturnType<typeof getNamedType>, value: unknown): number => {
    if (!parent || field.name.value.startsWith("__") || !("getFields" in parent)) return 0;
    const definition = (parent as GraphQLObjectType).getFields()[field.name.value];
    if (!definition) return 0;
    const named = getNamedType(definition.type);
    if (isLeafType(named)) return 0;
    if (named.name.endsWith("Connection")) {
      const connection = (value ?? {}) as { nodes?: unknown[]; edges?: { node?: unknown }[] };
      const nodes = connection.nodes ?? connection.edges?.map((edge) => edge.node) ?? [];
      const nodeField = (named as GraphQLObjectType).getFields().nodes;
      let nodeCost = 0;
      for (const selection of field.selectionSet?.selections ?? []) {
        if (selection.kind !== Kind.FIELD || !nodeField) continue;
        if (selection.name.value === "nodes") for (const node of nodes) nodeCost += 1 + selectionCost(selection.selectionSet, nodeField.type, node);
        if (selection.name.value === "edges") {
          const nodeSelection = selection.selectionSet?.selections.find((inner) => inner.kind === Kind.FIELD && inner.name.value === "node");
          if (nodeSelection?.kind === Kind.FIELD) for (const node of nodes) nodeCost += 1 + selectionCost(nodeSelection.selectionSet, nodeField.type, node);
        }
      }
      return 2 + nodeCost;
    }
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + 1 + selectionCost(field.selectionSet, definition.type, item), 0);
    return 1 + selectionCost(field.selectionSet, definition.type, value);
  };

  return selectionCost(operation.selectionSet, schema.getQueryType()!, data);
}

/** `>='2026-11-22T10:00:00Z'`, `<2026-11-22`, or a bare time (equal to the second), against an ISO time. */
function compareTime(iso: string, condition: string): boolean {
  const match = condition.match(/^(>=|<=|>|<)?'?([^']+)'?$/);
  const at = match ? Date.parse(match[2]!) : NaN;
  if (Number.isNaN(at)) return false;
  const time = Date.parse(iso);
  switch (match![1]) {
    case ">=":
      return time >= at;
    case ">":
      return time > at;
    case "<=":
      return time <= at;
    case "<":
      return time < at;
    default:
      return Math.floor(time / 1000) === Math.floor(at / 1000);
  }
}

/** Shopify's order search syntax, the part the app uses. */
export function matchesSearch(order: StoreOrder, query: string | undefined): boolean {
  if (!query) return true;
  const terms = query.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
  return terms.every((term) => {
    const negated = term.startsWith("-");
    const [rawKey, ...rest] = (negated ? term.slice(1) : term).split(":");
    const key = rawKey!.toLowerCase();
    const value = rest.join(":").replace(/^"|"$/g, "");
    const status = displayFulfillmentStatus(order);
    let result: boolean;
    switch (key) {
      case "fulfillment_status":
        result =
          value === "unshipped" ? status === "UNFULFILLED" || status === "ON_HOLD"
          : value === "partial" ? status === "PARTIALLY_FULFILLED"
          : value === "shipped" || value === "fulfilled" ? status === "FULFILLED"
          : value === "unfulfilled" ? status !== "FULFILLED" && status !== "FULFILLMENT_NOT_REQUIRED"
          : value === "on_hold" ? status === "ON_HOLD"
          : false;
        break;
      case "status":
        result = value === "any" ? true : value === "cancelled" ? Boolean(order.cancelledAt) : value === "closed" ? order.closed : value === "open" ? !order.closed && !order.cancelledAt : !order.closed;
        break;
      case "tag":
        result = order.tags.some((tag) => tag.toLowerCase() === value.toLowerCase());
        break;
      case "tag_not":
        result = !order.tags.some((tag) => tag.toLowerCase() === value.toLowerCase());
        break;
      case "name":
        result = order.name === value || order.name === `#${value}`;
        break;
      case "updated_at":
      case "created_at":
        result = compareTime(key === "updated_at" ? order.updatedAt : order.createdAt, value);
        break;
      case "financial_status":
        result = order.displayFinancialStatus.toLowerCase() === value.toLowerCase();
        break;
      default:
        // Shopify ignores a term it cannot use as a filter, and so does the simulator: it matches.
        result = true;
    }
    return negated ? !result : result;
  });
}

class NotImplemented extends GraphQLError {}

/** Reads Shopify's field names off the view objects; a field the simulator lacks is an error, never a silent null. */
const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
  if (source && typeof source === "object" && info.fieldName in source) {
    const value = (source as Record<string, unknown>)[info.fieldName];
    return typeof value === "function" ? value(args, context, info) : value;
  }
  throw new NotImplemented(`${info.parentType.name}.${info.fieldName} is valid in Shopify's schema but not implemented by the store simulator`);
};

type UserError = { field: string[] | null; message: string };

function findOrder(shop: StoreShop, id: unknown): StoreOrder | undefined {
  return shop.orders.find((order) => order.id === id);
}

function findFulfillment(shop: StoreShop, id: unknown) {
  for (const order of shop.orders) {
    const fulfillment = order.fulfillments.find((candidate) => candidate.id === id);
    if (fulfillment) return { order, fulfillment };
  }
  return undefined;
}

/** What a mutation did that Shopify would tell subscribed apps about (orders/create, orders/cancelled, returns/*). */
export type StoreEvent = { topic: "orders/create" | "orders/cancelled"; order: StoreOrder } | ReturnEvent;

function variantView(shop: StoreShop, id: unknown) {
  const variant = shop.variants?.find((candidate) => candidate.id === id);
  if (!variant) return null;
  const inventoryItemId = variant.id.replace("/ProductVariant/", "/InventoryItem/");
  return {
    __typename: "ProductVariant",
    id: variant.id,
    title: variant.title,
    inventoryItem: {
      __typename: "InventoryItem",
      id: inventoryItemId,
      measurement: { __typename: "InventoryItemMeasurement", id: inventoryItemId.replace("/InventoryItem/", "/InventoryItemMeasurement/"), weight: variant.grams === null ? null : { __typename: "Weight", unit: "GRAMS", value: variant.grams } },
    },
  };
}

function rootValue(shop: StoreShop, now: () => Date, emit: (event: StoreEvent) => void) {
  const stamp = () => now().toISOString();
  const touch = (order: StoreOrder) => (order.updatedAt = stamp());
  return {
    ...orderMutations(shop, { now, emit }),
    ...orderPaymentMutations(shop, { now, touch }),
    ...returnMutations(shop, { now, emit }),
    ...fulfillmentOrderMutations(shop, { touch }),
    ...flowMutations(shop, { now }),
    shop: {
      __typename: "Shop",
      id: gid("Shop", 1),
      name: shop.name,
      email: shop.email,
      myshopifyDomain: shop.domain,
      ianaTimezone: shop.ianaTimezone,
      currencyCode: "INR",
      billingAddress: { countryCodeV2: "IN", country: "India" },
      primaryDomain: { __typename: "Domain", id: gid("Domain", 1), host: shop.primaryDomainHost ?? shop.domain, url: `https://${shop.primaryDomainHost ?? shop.domain}`, sslEnabled: true },
    },
    productVariant: (args: Args) => variantView(shop, args.id),
    // Any object by its id, as Shopify's `nodes` does; the simulator knows product variants by id (null otherwise).
    nodes: (args: Args) => (args.ids as unknown[]).map((id) => variantView(shop, id)),
    locations: (args: Args) => connection(shop.locations.map((location) => locationView(shop, location.id)), args),
    location: (args: Args) => (shop.locations.some((location) => location.id === args.id) ? locationView(shop, String(args.id)) : null),
    order: (args: Args) => {
      const order = findOrder(shop, args.id);
      return order ? orderView(shop, order) : null;
    },
    fulfillmentOrder: (args: Args) => {
      const order = shop.orders.find((candidate) => candidate.fulfillmentOrders.some((fo) => fo.id === args.id));
      return order ? fulfillmentOrderView(shop, order, order.fulfillmentOrders.find((fo) => fo.id === args.id)!) : null;
    },
    fulfillment: (args: Args) => {
      const found = findFulfillment(shop, args.id);
      return found ? fulfillmentView(shop, found.order, found.fulfillment) : null;
    },
    orders: (args: Args) => {
      const sortKey = String(args.sortKey ?? "PROCESSED_AT");
      const sorted = shop.orders
        .filter((order) => matchesSearch(order, args.query as string | undefined))
        .sort((a, b) =>
          sortKey === "ORDER_NUMBER" || sortKey === "ID" ? a.name.localeCompare(b.name, "en", { numeric: true })
          : sortKey === "TOTAL_PRICE" ? orderTotals(a).total - orderTotals(b).total
          : sortKey === "UPDATED_AT" ? a.updatedAt.localeCompare(b.updatedAt)
          : a.createdAt.localeCompare(b.createdAt),
        );
      if (args.reverse) sorted.reverse();
      return connection(sorted.map((order) => orderView(shop, order)), args);
    },
    ordersCount: (args: Args) => ({ count: shop.orders.filter((order) => matchesSearch(order, args.query as string | undefined)).length, precision: "EXACT" }),

    fulfillmentCreate: (args: Args) => {
      const input = args.fulfillment as {
        lineItemsByFulfillmentOrder: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] }[];
        notifyCustomer?: boolean;
        trackingInfo?: { company?: string; number?: string; numbers?: string[]; url?: string; urls?: string[] };
      };
      const refuse = (message: string, field = ["fulfillment"]) => ({ fulfillment: null, userErrors: [{ field, message }] satisfies UserError[] });
      const targets = input.lineItemsByFulfillmentOrder.map((entry) => {
        const order = shop.orders.find((candidate) => candidate.fulfillmentOrders.some((fo) => fo.id === entry.fulfillmentOrderId));
        return { entry, order, fo: order?.fulfillmentOrders.find((fo) => fo.id === entry.fulfillmentOrderId) };
      });
      if (targets.length === 0) return refuse("Fulfillment orders must be provided");
      for (const target of targets) {
        if (!target.fo) return refuse(`Fulfillment order ${target.entry.fulfillmentOrderId} does not exist.`, ["fulfillment", "lineItemsByFulfillmentOrder"]);
      }
      const order = targets[0]!.order!;
      if (targets.some((target) => target.order !== order)) return refuse("Fulfillment orders must belong to the same order.");
      if (new Set(targets.map((target) => target.fo!.locationId)).size > 1) return refuse("Fulfillment orders must be assigned to the same location.");
      const tracking = input.trackingInfo ?? {};
      if (tracking.url && !tracking.number) return refuse("A tracking URL requires a tracking number.", ["fulfillment", "trackingInfo"]);
      for (const { fo } of targets) {
        if (fo!.status === "CLOSED") return refuse("The fulfillment order is closed and cannot be fulfilled.");
        if (fo!.status === "ON_HOLD") return refuse("The fulfillment order is on hold; release the hold before fulfilling.");
        if (fo!.status === "CANCELLED") return refuse("The fulfillment order is cancelled and cannot be fulfilled.");
        if (order.cancelledAt) return refuse("The order is cancelled and cannot be fulfilled.");
      }
      const lines: { id: string; lineItemId: string; quantity: number }[] = [];
      for (const { entry, fo } of targets) {
        const requested = entry.fulfillmentOrderLineItems ?? fo!.lines.filter((line) => line.remainingQuantity > 0).map((line) => ({ id: line.id, quantity: line.remainingQuantity }));
        for (const request of requested) {
          const line = fo!.lines.find((candidate) => candidate.id === request.id);
          if (!line) return refuse(`Fulfillment order line item ${request.id} does not exist.`);
          if (request.quantity > line.remainingQuantity) return refuse(`Quantity ${request.quantity} exceeds the ${line.remainingQuantity} remaining to fulfill.`);
        }
        if (requested.length === 0) return refuse("The fulfillment order has nothing left to fulfill.");
        for (const request of requested) {
          const line = fo!.lines.find((candidate) => candidate.id === request.id)!;
          line.remainingQuantity -= request.quantity;
          lines.push({ id: gid("FulfillmentLineItem", nextId()), lineItemId: line.lineItemId, quantity: request.quantity });
        }
        fo!.status = fo!.lines.every((line) => line.remainingQuantity === 0) ? "CLOSED" : "IN_PROGRESS";
      }
      const numbers = tracking.numbers ?? (tracking.number ? [tracking.number] : []);
      const urls = tracking.urls ?? (tracking.url ? [tracking.url] : []);
      const fulfillment = {
        id: gid("Fulfillment", nextId()),
        name: `${order.name}-F${order.fulfillments.length + 1}`,
        status: "SUCCESS" as const,
        createdAt: stamp(),
        updatedAt: stamp(),
        trackingInfo: numbers.map((number, index) => ({ company: tracking.company ?? null, number, url: urls[index] ?? null })),
        notifyCustomer: input.notifyCustomer ?? false,
        fulfillmentOrderIds: targets.map((target) => target.fo!.id),
        locationId: targets[0]!.fo!.locationId,
        lines,
        events: [],
      };
      order.fulfillments.push(fulfillment);
      touch(order);
      return { fulfillment: fulfillmentView(shop, order, fulfillment), userErrors: [] };
    },

    fulfillmentTrackingInfoUpdate: (args: Args) => {
      const found = findFulfillment(shop, args.fulfillmentId);
      if (!found) return { fulfillment: null, userErrors: [{ field: ["fulfillmentId"], message: "Fulfillment does not exist." }] };
      const input = args.trackingInfoInput as { company?: string; number?: string; url?: string };
      found.fulfillment.trackingInfo = [{ company: input.company ?? null, number: input.number ?? null, url: input.url ?? null }];
      found.fulfillment.updatedAt = stamp();
      touch(found.order);
      if (args.notifyCustomer) found.fulfillment.notifyCustomer = true;
      return { fulfillment: fulfillmentView(shop, found.order, found.fulfillment), userErrors: [] };
    },

    fulfillmentEventCreate: (args: Args) => {
      const input = args.fulfillmentEvent as { fulfillmentId: string; status: string; message?: string; happenedAt?: string; estimatedDeliveryAt?: string; city?: string };
      const found = findFulfillment(shop, input.fulfillmentId);
      if (!found) return { fulfillmentEvent: null, userErrors: [{ field: ["fulfillmentEvent", "fulfillmentId"], message: "Fulfillment does not exist." }] };
      const event = {
        id: gid("FulfillmentEvent", nextId()),
        status: input.status,
        message: input.message ?? null,
        // Shopify's DateTime is kept to the second.
        happenedAt: toShopifyDateTime(input.happenedAt) ?? stamp(),
        estimatedDeliveryAt: toShopifyDateTime(input.estimatedDeliveryAt),
        city: input.city ?? null,
      };
      found.fulfillment.events.push(event);
      found.fulfillment.updatedAt = stamp();
      return { fulfillmentEvent: { __typename: "FulfillmentEvent", ...event }, userErrors: [] };
    },

    tagsAdd: (args: Args) => changeTags(shop, args, (order, tags) => {
      for (const tag of tags) if (!order.tags.some((existing) => existing.toLowerCase() === tag.toLowerCase())) order.tags.push(tag);
      touch(order);
    }),
    tagsRemove: (args: Args) => changeTags(shop, args, (order, tags) => {
      order.tags = order.tags.filter((existing) => !tags.some((tag) => tag.toLowerCase() === existing.toLowerCase()));
      touch(order);
    }),

    metafieldsSet: (args: Args) => {
      const inputs = args.metafields as { ownerId: string; namespace?: string; key: string; type?: string; value: string }[];
      if (inputs.length > 25) return { metafields: null, userErrors: [{ field: ["metafields"], message: "At most 25 metafields can be set at once.", code: "LESS_THAN_OR_EQUAL_TO", elementIndex: null }] };
      const errors = inputs.flatMap((input, index) => {
        if (!findOrder(shop, input.ownerId)) return [{ field: ["metafields", String(index), "ownerId"], message: "Owner does not exist.", code: "INVALID", elementIndex: index }];
        if (!input.type) return [{ field: ["metafields", String(index), "type"], message: "Type can't be blank.", code: "BLANK", elementIndex: index }];
        if (input.type === "json") {
          try {
            JSON.parse(input.value);
          } catch {
            return [{ field: ["metafields", String(index), "value"], message: "Value must be valid JSON.", code: "INVALID_VALUE", elementIndex: index }];
          }
        }
        return [];
      });
      if (errors.length > 0) return { metafields: null, userErrors: errors };
      const written = inputs.map((input) => {
        const order = findOrder(shop, input.ownerId)!;
        const namespace = input.namespace ?? "$app";
        const existing = order.metafields.find((metafield) => metafield.namespace === namespace && metafield.key === input.key);
        if (existing) {
          Object.assign(existing, { value: input.value, type: input.type!, updatedAt: stamp() });
          return existing;
        }
        const created = { id: gid("Metafield", nextId()), namespace, key: input.key, type: input.type!, value: input.value, createdAt: stamp(), updatedAt: stamp() };
        order.metafields.push(created);
        touch(order);
        return created;
      });
      return {
        metafields: written.map((metafield) => ({ __typename: "Metafield", ...metafield, compareDigest: Buffer.from(`${metafield.id}:${metafield.updatedAt}`).toString("base64") })),
        userErrors: [],
      };
    },
  };
}

function changeTags(shop: StoreShop, args: Args, change: (order: StoreOrder, tags: string[]) => void) {
  const order = findOrder(shop, args.id);
  if (!order) return { node: null, userErrors: [{ field: ["id"], message: "Resource not found" }] };
  const tags = (args.tags as string[]).flatMap((tag) => tag.split(",")).map((tag) => tag.trim()).filter(Boolean);
  change(order, tags);
  return { node: orderView(shop, order), userErrors: [] };
}

export interface GraphqlRequest {
  query: string;
  variables?: Args;
  operationName?: string;
}

export interface GraphqlAnswer {
  status: number;
  body: { data?: unknown; errors?: unknown[]; extensions?: unknown };
  /** A mutation ran (whatever its userErrors): the shop's state may have changed. */
  mutated?: boolean;
}

type CheckedDocument = { document: DocumentNode } | { errors: unknown[] };
const checkedDocuments = new Map<string, CheckedDocument>();
const CHECKED_DOCUMENTS_KEPT = 500;

/**
 * A query parsed and validated against the Admin schema once: an app sends the same few documents again and again,
 * and validating one against the whole schema costs milliseconds of the store's CPU each time.
 */
function checkDocument(query: string): CheckedDocument {
  const known = checkedDocuments.get(query);
  if (known) return known;
  let checked: CheckedDocument;
  try {
    const document = parse(query);
    const validationErrors = validate(loadAdminSchema(), document);
    checked = validationErrors.length > 0 ? { errors: validationErrors.map((error) => error.toJSON()) } : { document };
  } catch (error) {
    checked = { errors: [(error as GraphQLError).toJSON()] };
  }
  if (checkedDocuments.size >= CHECKED_DOCUMENTS_KEPT) checkedDocuments.delete(checkedDocuments.keys().next().value!);
  checkedDocuments.set(query, checked);
  return checked;
}

/** Executes one Admin API request for a shop: validation, cost, throttling, resolvers. */
export async function runAdminGraphql(
  shop: StoreShop,
  request: GraphqlRequest,
  { throttle: settings, now, emit = () => undefined }: { throttle: ThrottleSettings; now: () => Date; emit?: (event: StoreEvent) => void },
): Promise<GraphqlAnswer> {
  const schema = loadAdminSchema();
  const checked = checkDocument(request.query);
  if ("errors" in checked) return { status: 200, body: { errors: checked.errors } };
  const { document } = checked;

  const cost = requestedCost(schema, document, { variables: request.variables, operationName: request.operationName });
  const nowMs = now().getTime();
  if (Number.isNaN(shop.bucket.available)) shop.bucket = { available: settings.maximumAvailable, updatedAt: nowMs };
  const restored = Math.min(settings.maximumAvailable, shop.bucket.available + ((nowMs - shop.bucket.updatedAt) / 1000) * settings.restoreRate);
  shop.bucket = { available: restored, updatedAt: nowMs };
  const throttleStatus = () => ({
    maximumAvailable: settings.maximumAvailable,
    currentlyAvailable: Math.floor(shop.bucket.available),
    restoreRate: settings.restoreRate,
  });

  if (cost > SINGLE_QUERY_MAX_COST) {
    return {
      status: 200,
      body: {
        errors: [
          {
            message: `Query cost is ${cost}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost, maxCost: SINGLE_QUERY_MAX_COST, documentation: "https://shopify.dev/api/usage/rate-limits" },
          },
        ],
      },
    };
  }

  const rootFields = document.definitions.flatMap((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION ? definition.selectionSet.selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : [])) : [],
  );
  const injectedFault = rootFields.map((field) => [field, shop.faults.get(field)] as const).find(([, fault]) => fault);
  if (injectedFault) {
    const [field, fault] = injectedFault;
    if (fault!.times <= 1) shop.faults.delete(field);
    else shop.faults.set(field, { ...fault!, times: fault!.times - 1 });
  }
  const injected = injectedFault && ([injectedFault[0], injectedFault[1]!.kind] as const);

  if (cost > shop.bucket.available || injected?.[1] === "THROTTLED") {
    shop.usage.throttled += 1;
    return {
      status: 200,
      body: {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } },
      },
    };
  }
  if (injected?.[1] === "HTTP_503") return { status: 503, body: { errors: [{ message: "Service Unavailable" }] } };
  if (injected?.[1] === "INTERNAL_ERROR") {
    return { status: 200, body: { errors: [{ message: "Internal error. Looks like something went wrong on our end.", extensions: { code: "INTERNAL_SERVER_ERROR" } }] } };
  }

  shop.bucket.available -= cost;
  const result = await execute({
    schema,
    document,
    rootValue: rootValue(shop, now, emit),
    variableValues: request.variables,
    operationName: request.operationName,
    fieldResolver,
    typeResolver: (value) => (value as { __typename?: string }).__typename,
  });
  // As Shopify does: the bucket is charged the requested cost up front and refunded what the answer did not use.
  const actual = result.data ? Math.min(cost, actualCost(schema, document, result.data, request.operationName)) : cost;
  shop.bucket.available = Math.min(settings.maximumAvailable, shop.bucket.available + cost - actual);
  shop.usage.points += actual;
  shop.usage.answers += 1;
  const operation = getOperationAST(document, request.operationName);
  return {
    status: 200,
    mutated: operation?.operation === "mutation",
    body: {
      ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
      data: result.data ?? null,
      extensions: { cost: { requestedQueryCost: cost, actualQueryCost: actual, throttleStatus: throttleStatus() } },
    },
  };
}

function toShopifyDateTime(value: string | undefined): string | null {
  if (value === undefined) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(Math.floor(time / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
