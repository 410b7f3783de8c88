import { readFileSync } from "node:fs";
import { isSafeTrackingUrl } from "../app/shipping/tracking-url";
import { ORDER_INDEX_PRINT_TARGET, ORDER_PRINT_TARGET, PRINT_MENU_SCRIPT_PATH, printActionsFor, printDialog, printMenu, servePrintActions } from "./admin-print-actions";
import type { StoreOrder, StoreShop } from "./model";
import { escapeHtml, shellLayout, shopQuery } from "./shell-layout";
import type { StoreSimulator } from "./simulator";
import { displayFulfillmentStatus, orderTotals } from "./views";
import { fulfillmentLines, returnsOf } from "./returns";

/**
 * The local admin's own order pages, as Shopify's admin has them: the Orders list (`/admin/orders`, with "Create
 * test order", and Print for the orders selected in it) and an order's page (`/admin/orders/{id}`, with "Cancel
 * order"), where Dakiya's order-page extensions appear — the block as a card, the "Ship with Dakiya" action as a
 * dialog — drawn by a plain script (store/admin-order-card.js) from the same backend routes the extensions call
 * (`/api/orders/…` on the app's origin, cross-origin with a session token, as the admin's fetch sends them). Orders
 * are created and cancelled through the simulator, which sends `orders/create` and `orders/cancelled` to the app as
 * Shopify would.
 *
 * Not the Polaris web components: the real extensions are tested with Shopify's extension tester
 * (extensions/README.md); this is for a person and a browser test to drive the backend end to end.
 */

export const ORDER_CARD_SCRIPT_PATH = "/__shell/order-card.js";

const ORDER_CARD_SCRIPT = readFileSync(new URL("./admin-order-card.js", import.meta.url), "utf8");

export interface OrderPagesOptions {
  simulator: StoreSimulator;
  /** Where the app serves: the card calls its `/api/orders/…` routes there, cross-origin as the admin does. */
  appUrl: string;
}

const FINANCIAL_LABELS: Record<string, string> = {
  PAID: "Paid",
  PENDING: "Payment pending",
  AUTHORIZED: "Authorized",
  PARTIALLY_PAID: "Partially paid",
  PARTIALLY_REFUNDED: "Partially refunded",
  REFUNDED: "Refunded",
  VOIDED: "Voided",
  EXPIRED: "Expired",
};

const FULFILLMENT_LABELS: Record<string, [label: string, tone: string]> = {
  UNFULFILLED: ["Unfulfilled", "attention"],
  PARTIALLY_FULFILLED: ["Partially fulfilled", "attention"],
  FULFILLED: ["Fulfilled", ""],
  ON_HOLD: ["On hold", "attention"],
  FULFILLMENT_NOT_REQUIRED: ["No shipping required", ""],
};

const inr = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
const placedAt = (shop: StoreShop, iso: string) => new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: shop.ianaTimezone }).format(new Date(iso));

const badge = (label: string, tone = "") => `<span class="badge${tone ? ` ${tone}` : ""}">${escapeHtml(label)}</span>`;

function statusBadges(order: StoreOrder): string {
  const payment = FINANCIAL_LABELS[order.displayFinancialStatus] ?? order.displayFinancialStatus;
  const [fulfillment, tone] = FULFILLMENT_LABELS[displayFulfillmentStatus(order)] ?? [displayFulfillmentStatus(order), ""];
  return [order.cancelledAt ? badge("Cancelled", "critical") : "", badge(payment, order.displayFinancialStatus === "PAID" ? "" : "attention"), badge(fulfillment, tone)].join("");
}

const orderPath = (shop: string, order: StoreOrder) => `/admin/orders/${order.legacyResourceId}?${shopQuery(shop)}`;

function ordersList(shop: StoreShop, { appUrl, notice }: { appUrl: string; notice: string }): string {
  const orders = [...shop.orders].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
  // Selecting orders offers the admin's bulk actions: here Print, with the apps' print actions for a selection
  // (admin-print-menu.js reads the checked rows). Without such an action there is nothing to select orders for.
  const printActions = printActionsFor(ORDER_INDEX_PRINT_TARGET);
  const selectable = printActions.length > 0;
  const rows = orders
    .map((order) => {
      const address = order.shippingAddress;
      const customer = address?.name ?? ([order.customer?.firstName, order.customer?.lastName].filter(Boolean).join(" ") || "No customer");
      const select = selectable ? `<td><input type="checkbox" data-select-order value="${escapeHtml(order.id)}" aria-label="Select ${escapeHtml(order.name)}"></td>` : "";
      return `<tr>
        ${select}<td><a href="${escapeHtml(orderPath(shop.domain, order))}">${escapeHtml(order.name)}</a></td>
        <td>${escapeHtml(placedAt(shop, order.createdAt))}</td>
        <td>${escapeHtml(customer)}</td>
        <td>${escapeHtml(address?.city ?? "—")}</td>
        <td>${statusBadges(order)}</td>
        <td class="num">${order.lineItems.reduce((sum, item) => sum + item.quantity, 0)}</td>
        <td class="num">${escapeHtml(inr.format(orderTotals(order).total))}</td>
      </tr>`;
    })
    .join("");
  return `<div class="page">
    <div class="page-head"><h1>Orders</h1>
      <div class="actions"><form method="post" action="/admin/orders?${escapeHtml(shopQuery(shop.domain))}"><button type="submit" class="primary">Create test order</button></form></div>
    </div>
    ${notice}
    <div class="card" style="padding:0">
      ${selectable ? `<div class="bulk-actions" data-bulk-actions hidden><span data-selection-count aria-live="polite"></span>${printMenu(printActions)}</div>` : ""}
      <table aria-label="Orders">
        <thead><tr>${selectable ? `<th scope="col"><input type="checkbox" data-select-all-orders aria-label="Select all orders"></th>` : ""}<th scope="col">Order</th><th scope="col">Date</th><th scope="col">Customer</th><th scope="col">City</th><th scope="col">Status</th><th scope="col" class="num">Items</th><th scope="col" class="num">Total</th></tr></thead>
        <tbody>${rows}</tbody>
      </table>
    </div>
    ${selectable ? printDialog({ shop: shop.domain, appUrl, target: ORDER_INDEX_PRINT_TARGET, documentName: "dakiya-labels.pdf" }) : ""}
  </div>`;
}

const titleCase = (status: string) => status.charAt(0) + status.slice(1).toLowerCase().replaceAll("_", " ");

/**
 * Each fulfillment as Shopify's order page shows it: the carrier, the tracking number and link, and the shipping
 * events posted to it, which is what Shopify tells the shopper. Only web addresses are links.
 */
function fulfillmentsSection(order: StoreOrder): string {
  const fulfillments = order.fulfillments.map((fulfillment) => {
    const tracking = fulfillment.trackingInfo
      .map((info) => {
        const link = info.url && isSafeTrackingUrl(info.url) ? ` · <a href="${escapeHtml(info.url)}">${escapeHtml(info.url)}</a>` : "";
        return `<p>${escapeHtml(info.company ?? "Other")} · tracking number <strong>${escapeHtml(info.number ?? "")}</strong>${link}</p>`;
      })
      .join("");
    const events = [...fulfillment.events]
      .sort((a, b) => a.happenedAt.localeCompare(b.happenedAt))
      .map((event) => `<tr><td>${escapeHtml(event.happenedAt.slice(0, 16).replace("T", " "))}</td><td>${escapeHtml(titleCase(event.status))}</td><td>${escapeHtml(event.message ?? "")}</td><td>${escapeHtml(event.city ?? "")}</td></tr>`)
      .join("");
    const eventTable = events
      ? `<table aria-label="Shipping events"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Event</th><th scope="col">Message</th><th scope="col">City</th></tr></thead><tbody>${events}</tbody></table>`
      : `<p class="muted">No shipping events yet.</p>`;
    return `<section class="card" aria-label="${escapeHtml(fulfillment.name)}"><h2>${escapeHtml(fulfillment.name)} · ${escapeHtml(titleCase(fulfillment.status))}</h2>${tracking}${eventTable}</section>`;
  });
  const metafields = order.metafields.map((field) => `<tr><td>${escapeHtml(`${field.namespace}.${field.key}`)}</td><td>${escapeHtml(field.value)}</td></tr>`).join("");
  return `${fulfillments.join("")}${metafields ? `<section class="card" aria-labelledby="metafields-title"><h2 id="metafields-title">Metafields</h2><table aria-label="Metafields"><tbody>${metafields}</tbody></table></section>` : ""}`;
}

const RETURN_STATUS: Record<string, [label: string, tone: string]> = {
  REQUESTED: ["Return requested", "attention"],
  OPEN: ["Return in progress", "attention"],
  DECLINED: ["Return declined", ""],
  CANCELED: ["Return cancelled", ""],
  CLOSED: ["Returned", ""],
};

/**
 * The order's returns as Shopify's order page shows them: each return's items and status, its reverse deliveries
 * with the tracking number and link the shopper sees, and the merchant's actions on it (approve, decline, cancel,
 * close). A fulfilled order offers "Request return" (as the shopper does from their account) and "Create return"
 * (as the merchant does, with no approval step and no webhook).
 */
function returnsSection(shop: StoreShop, order: StoreOrder): string {
  const action = (ret: string, name: string, label: string, tone = "") =>
    `<form method="post" action="/admin/orders/${escapeHtml(order.legacyResourceId)}/returns/${escapeHtml(name)}?${escapeHtml(shopQuery(shop.domain))}"><input type="hidden" name="returnId" value="${escapeHtml(ret)}"><button type="submit"${tone ? ` class="${tone}"` : ""}>${escapeHtml(label)}</button></form>`;
  const returns = returnsOf(order).map((ret) => {
    const [label, tone] = RETURN_STATUS[ret.status] ?? [ret.status, ""];
    const items = ret.lines
      .map((line) => {
        const item = order.lineItems.find((candidate) => candidate.id === line.lineItemId);
        return `<tr><td>${escapeHtml(item?.title ?? "Item")}</td><td class="num">× ${line.quantity}</td><td>${escapeHtml(line.customerNote ?? "")}</td><td>${line.processedQuantity > 0 ? `${line.processedQuantity} processed` : ""}</td></tr>`;
      })
      .join("");
    const deliveries = ret.reverseFulfillmentOrders
      .flatMap((rfo) => rfo.deliveries)
      .map((delivery) => {
        const link = delivery.tracking?.url && isSafeTrackingUrl(delivery.tracking.url) ? ` · <a href="${escapeHtml(delivery.tracking.url)}">${escapeHtml(delivery.tracking.url)}</a>` : "";
        // Shopify's return shows the label the app attached as a download for the merchant and the shopper.
        const label = delivery.label && isSafeTrackingUrl(delivery.label.fileUrl) ? ` · <a href="${escapeHtml(delivery.label.fileUrl)}">Return label</a>` : "";
        return `<p>Reverse delivery · tracking number <strong>${escapeHtml(delivery.tracking?.number ?? "none")}</strong>${link}${label}</p>`;
      })
      .join("");
    const dispositions = ret.reverseFulfillmentOrders
      .flatMap((rfo) => rfo.lines.flatMap((line) => line.dispositions))
      .map((disposition) => `<li>${disposition.quantity} ${escapeHtml(titleCase(disposition.type))}</li>`)
      .join("");
    const actions =
      ret.status === "REQUESTED"
        ? action(ret.id, "approve", "Approve return") + action(ret.id, "decline", "Decline return", "critical")
        : ret.status === "OPEN"
          ? action(ret.id, "close", "Close return") + action(ret.id, "cancel", "Cancel return", "critical")
          : "";
    return `<section class="card" aria-label="Return ${escapeHtml(ret.name)}"><h2>${escapeHtml(ret.name)} ${badge(label, tone)}</h2>
      <table aria-label="Returning items"><tbody>${items}</tbody></table>${deliveries || (ret.status === "OPEN" ? `<p class="muted">No reverse delivery yet.</p>` : "")}
      ${dispositions ? `<ul aria-label="Dispositions">${dispositions}</ul>` : ""}<div class="actions">${actions}</div></section>`;
  });
  const returnable = fulfillmentLines(order).length > 0 && !order.cancelledAt;
  const start = returnable
    ? `<div class="actions">${action("", "request", "Request return (as the shopper)")}${action("", "create", "Create return")}</div>`
    : "";
  if (returns.length === 0 && !start) return "";
  return `<section class="card" aria-labelledby="returns-title"><h2 id="returns-title">Returns</h2>${start}</section>${returns.join("")}`;
}

function orderPage(shop: StoreShop, order: StoreOrder, { appUrl, notice }: { appUrl: string; notice: string }): string {
  const address = order.shippingAddress;
  const totals = orderTotals(order);
  const items = order.lineItems
    .map(
      (item) => `<tr><td>${escapeHtml(item.title)}${item.sku ? `<div class="muted">SKU ${escapeHtml(item.sku)}</div>` : ""}</td>
        <td class="num">${escapeHtml(inr.format(item.discountedUnitPrice))} × ${item.quantity}</td><td class="num">${escapeHtml(inr.format(item.discountedUnitPrice * item.quantity))}</td></tr>`,
    )
    .join("");
  const addressLines = address
    ? [address.name, address.company, address.address1, address.address2, [address.city, address.province, address.zip].filter(Boolean).join(" "), address.country, address.phone]
        .filter(Boolean)
        .map((line) => `<div>${escapeHtml(line)}</div>`)
        .join("")
    : `<p class="muted">No shipping address</p>`;
  const customer = order.customer ? [order.customer.firstName, order.customer.lastName].filter(Boolean).join(" ") : (address?.name ?? null);
  // Shopify's Print menu: the app's print actions for the order page (their frames and documents: admin-print-menu.js).
  const print = printMenu(printActionsFor(ORDER_PRINT_TARGET));
  const actions = order.cancelledAt
    ? print
    : `${print}<details class="menu"><summary class="button">More actions</summary><div class="menu-items"><button type="button" data-open-action>Ship with Dakiya</button><a href="/account/orders/${escapeHtml(order.legacyResourceId)}?${escapeHtml(shopQuery(shop.domain))}">View order status page</a></div></details>
       <form method="post" action="/admin/orders/${escapeHtml(order.legacyResourceId)}/cancel?${escapeHtml(shopQuery(shop.domain))}"><button type="submit" class="critical">Cancel order</button></form>`;
  return `<div class="page">
    <a class="back" href="/admin/orders?${escapeHtml(shopQuery(shop.domain))}">← Orders</a>
    <div class="page-head"><h1>${escapeHtml(order.name)}</h1>${statusBadges(order)}
      <span class="muted">${escapeHtml(placedAt(shop, order.createdAt))}</span>
      <div class="actions">${actions}</div>
    </div>
    ${notice}
    ${order.cancelledAt ? `<div class="banner critical" role="status"><p><strong>This order was cancelled</strong> on ${escapeHtml(placedAt(shop, order.cancelledAt))}${order.cancelReason ? ` (${escapeHtml(order.cancelReason.toLowerCase())})` : ""}.</p></div>` : ""}
    <div class="columns">
      <div>
        <section class="card" aria-labelledby="items-title">
          <h2 id="items-title">Items</h2>
          <table aria-label="Items"><tbody>${items}</tbody></table>
          <table class="totals" aria-label="Totals"><tbody>
            <tr><td>Subtotal</td><td class="num">${escapeHtml(inr.format(totals.subtotal))}</td></tr>
            <tr><td>Shipping</td><td class="num">${escapeHtml(inr.format(order.shippingPrice))}</td></tr>
            <tr><td><strong>Total</strong></td><td class="num"><strong>${escapeHtml(inr.format(totals.total))}</strong></td></tr>
          </tbody></table>
        </section>
        ${fulfillmentsSection(order)}
        ${returnsSection(shop, order)}
        <section class="card" id="dakiya-card" aria-labelledby="dakiya-card-title" data-order-id="${escapeHtml(order.legacyResourceId)}" data-shop="${escapeHtml(shop.domain)}" data-app-url="${escapeHtml(appUrl)}">
          <h2 id="dakiya-card-title">Dakiya</h2>
          <div class="dakiya-body" aria-live="polite"><p class="muted">Loading…</p></div>
        </section>
      </div>
      <aside>
        <section class="card" aria-labelledby="customer-title"><h2 id="customer-title">Customer</h2>
          <div>${escapeHtml(customer ?? "No customer")}</div>${order.email ? `<div class="muted">${escapeHtml(order.email)}</div>` : ""}</section>
        <section class="card" aria-labelledby="address-title"><h2 id="address-title">Shipping address</h2>${addressLines}</section>
        <section class="card" aria-labelledby="payment-title"><h2 id="payment-title">Payment</h2>
          <dl class="facts"><dt>Status</dt><dd>${escapeHtml(FINANCIAL_LABELS[order.displayFinancialStatus] ?? order.displayFinancialStatus)}</dd>
          <dt>Method</dt><dd>${escapeHtml(order.paymentGatewayNames.join(", ") || "—")}</dd>
          ${(order.payments ?? []).map((payment) => `<dt>Payment received</dt><dd>₹${escapeHtml(payment.amount.toFixed(2))} · ${escapeHtml(payment.gateway)}</dd>`).join("")}
          <dt>Tags</dt><dd>${escapeHtml(order.tags.join(", ") || "—")}</dd></dl></section>
        <section class="card" aria-labelledby="notes-title"><h2 id="notes-title">Notes</h2>
          <p class="${order.note ? "" : "muted"}" style="white-space:pre-line">${escapeHtml(order.note || "No notes from customer")}</p></section>
      </aside>
    </div>
    <dialog id="dakiya-action" aria-labelledby="dakiya-action-title">
      <div class="dialog-head" id="dakiya-action-title">Ship with Dakiya</div>
      <div class="dialog-body"></div>
      <div class="dialog-foot"></div>
    </dialog>
    ${printDialog({ shop: shop.domain, appUrl, target: ORDER_PRINT_TARGET, orderGid: order.id, documentName: "dakiya-label.pdf" })}
  </div>`;
}

const PLACES = [
  { city: "Bengaluru", provinceCode: "KA", zip: "560038", street: "3rd Cross, Indiranagar" },
  { city: "Mumbai", provinceCode: "MH", zip: "400050", street: "Hill Road, Bandra West" },
  { city: "New Delhi", provinceCode: "DL", zip: "110017", street: "Saket, Press Enclave Marg" },
  { city: "Chennai", provinceCode: "TN", zip: "600020", street: "Gandhi Nagar, Adyar" },
  { city: "Pune", provinceCode: "MH", zip: "411001", street: "MG Road, Camp" },
  { city: "Hyderabad", provinceCode: "TS", zip: "500034", street: "Road No. 10, Banjara Hills" },
  { city: "Kolkata", provinceCode: "WB", zip: "700019", street: "Gariahat Road, Ballygunge" },
  { city: "Jaipur", provinceCode: "RJ", zip: "302001", street: "MI Road" },
];
const SHOPPERS = ["Aditi Rao", "Rohan Mehta", "Fatima Sheikh", "Karan Singh", "Lakshmi Iyer", "Sanjay Kulkarni", "Nisha Bose", "Imran Qureshi"];
const PRODUCTS: [title: string, sku: string, price: number, grams: number][] = [
  ["Handloom cotton kurta", "KUR", 799, 450],
  ["Block-print bedsheet", "BED", 1499, 900],
  ["Brass table lamp", "LMP", 1199, 700],
  ["Chanderi silk scarf", "SCF", 999, 150],
  ["Masala chai tin", "CHA", 349, 300],
];

/**
 * A shopper's order that Dakiya can ship: in India, with a PIN code and a mobile number, cash on delivery or
 * prepaid in turn (tagged as the demo's settings read it), one or two items.
 */
export function testOrderInput(index: number) {
  const place = PLACES[index % PLACES.length]!;
  const [firstName, lastName] = SHOPPERS[index % SHOPPERS.length]!.split(" ") as [string, string];
  const cod = index % 2 === 0;
  const products = [PRODUCTS[index % PRODUCTS.length]!, ...(index % 3 === 0 ? [PRODUCTS[(index + 2) % PRODUCTS.length]!] : [])];
  const total = products.reduce((sum, [, , price]) => sum + price, 0);
  return {
    email: `${firstName.toLowerCase()}.${lastName.toLowerCase()}@example.in`,
    tags: [cod ? "cod" : "prepaid"],
    financialStatus: cod ? "PENDING" : "PAID",
    transactions: [{ gateway: cod ? "Cash on Delivery (COD)" : "Razorpay (UPI, Cards, Wallets, NetBanking)", amountSet: { shopMoney: { amount: total.toFixed(2) } } }],
    shippingAddress: { firstName, lastName, address1: `${12 + (index % 80)}, ${place.street}`, city: place.city, provinceCode: place.provinceCode, zip: place.zip, countryCode: "IN", phone: `98${String(45_000_000 + index).padStart(8, "0")}` },
    lineItems: products.map(([title, sku, price, grams]) => ({ title, sku: `${sku}-${100 + index}`, quantity: 1, priceSet: { shopMoney: { amount: price.toFixed(2) } }, requiresShipping: true, weight: { unit: "GRAMS" as const, value: grams } })),
  };
}

const seeOther = (location: string) => new Response(null, { status: 303, headers: { Location: location } });
const html = (body: string, status = 200) => new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });

/** The order pages' handler: an answer for their addresses, null for anything else. */
export function createOrderPages({ simulator, appUrl }: OrderPagesOptions) {
  const appOrigin = new URL(appUrl).origin;
  const page = (shop: StoreShop, title: string, main: string, status = 200, scripts = "") =>
    html(shellLayout({ shop: shop.domain, shopName: shop.name, title, current: "orders", main, scripts }), status);
  const notFound = (shop: StoreShop) => page(shop, "Not found", `<div class="page"><h1>Order not found</h1><p><a href="/admin/orders?${escapeHtml(shopQuery(shop.domain))}">Back to orders</a></p></div>`, 404);
  const showOrder = (shop: StoreShop, order: StoreOrder, notice = "", status = 200) =>
    page(shop, order.name, orderPage(shop, order, { appUrl: appOrigin, notice }), status, `<script src="${ORDER_CARD_SCRIPT_PATH}" defer></script><script src="${PRINT_MENU_SCRIPT_PATH}" defer></script>`);

  return async function handle(request: Request, shopDomain: string): Promise<Response | null> {
    const url = new URL(request.url);
    if (url.pathname === ORDER_CARD_SCRIPT_PATH) return new Response(ORDER_CARD_SCRIPT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
    const printing = servePrintActions(request, { shop: shopDomain, appUrl: appOrigin });
    if (printing) return printing;
    // Shopify's admin address for an order, https://admin.shopify.com/store/<handle>/orders/<id>: the same path here
    // opens the same order, its shop named by the handle.
    const storePath = /^\/store\/([a-z0-9][a-z0-9-]{0,60})\/orders\/(\d{1,20})\/?$/.exec(url.pathname);
    if (storePath && request.method === "GET") {
      const shop = simulator.shops.get(`${storePath[1]}.myshopify.com`);
      const order = shop?.orders.find((candidate) => candidate.legacyResourceId === storePath[2]);
      if (!shop) return new Response(`No shop ${storePath[1]} in the simulator`, { status: 404 });
      return order ? seeOther(orderPath(shop.domain, order)) : notFound(shop);
    }
    const match = /^\/admin\/orders(?:\/(\d{1,20})(\/cancel|\/returns\/(?:request|create|approve|decline|cancel|close))?)?\/?$/.exec(url.pathname);
    if (!match) return null;
    const shop = simulator.shops.get(shopDomain);
    if (!shop) return new Response(`No shop ${shopDomain} in the simulator`, { status: 404 });
    const [, legacyId, cancel] = match;

    if (!legacyId) {
      if (request.method === "POST") {
        const order = simulator.placeOrder(shop.domain, testOrderInput(shop.orders.length));
        return seeOther(`/admin/orders?${shopQuery(shop.domain)}&created=${order.legacyResourceId}`);
      }
      const created = shop.orders.find((order) => order.legacyResourceId === url.searchParams.get("created"));
      const notice = created
        ? `<div class="banner success" role="status"><p>Created order <a href="${escapeHtml(orderPath(shop.domain, created))}">${escapeHtml(created.name)}</a>; Shopify sent <code>orders/create</code> to the app.</p></div>`
        : "";
      return page(shop, "Orders", ordersList(shop, { appUrl: appOrigin, notice }), 200, `<script src="${PRINT_MENU_SCRIPT_PATH}" defer></script>`);
    }

    const order = shop.orders.find((candidate) => candidate.legacyResourceId === legacyId);
    if (!order) return notFound(shop);
    if (cancel?.startsWith("/returns/")) {
      if (request.method !== "POST") return seeOther(orderPath(shop.domain, order));
      const returnId = String((await request.formData()).get("returnId") ?? "").slice(0, 100);
      try {
        const done = returnPageAction(simulator, shop, order, cancel.slice("/returns/".length), returnId);
        return seeOther(`${orderPath(shop.domain, order)}&returned=${encodeURIComponent(done)}`);
      } catch (error) {
        return showOrder(shop, order, `<div class="banner critical" role="alert"><p>${escapeHtml((error as Error).message)}</p></div>`, 409);
      }
    }
    if (cancel) {
      if (request.method !== "POST") return seeOther(orderPath(shop.domain, order));
      try {
        simulator.cancelOrder(shop.domain, order.id);
      } catch (error) {
        return showOrder(shop, order, `<div class="banner critical" role="alert"><p>${escapeHtml((error as Error).message)}</p></div>`, 409);
      }
      return seeOther(`${orderPath(shop.domain, order)}&cancelled=1`);
    }
    const returned = RETURN_NOTICES[url.searchParams.get("returned") ?? ""];
    const notice =
      url.searchParams.get("cancelled") === "1" && order.cancelledAt ? `<div class="banner success" role="status"><p>Order cancelled; Shopify sent <code>orders/cancelled</code> to the app.</p></div>`
      : returned ? `<div class="banner success" role="status"><p>${returned}</p></div>`
      : "";
    return showOrder(shop, order, notice);
  };
}

const RETURN_NOTICES: Record<string, string> = {
  request: "Return requested; Shopify sent <code>returns/request</code> to the app.",
  create: "Return created (no webhook: Shopify sends none for a return the merchant creates).",
  approve: "Return approved; Shopify sent <code>returns/approve</code> to the app.",
  decline: "Return declined; Shopify sent <code>returns/decline</code> to the app.",
  cancel: "Return cancelled; Shopify sent <code>returns/cancel</code> to the app.",
  close: "Return closed; Shopify sent <code>returns/close</code> to the app.",
};

/** One return action from the order page, through the simulator (which sends the webhook); the action's name back. */
function returnPageAction(simulator: StoreSimulator, shop: StoreShop, order: StoreOrder, name: string, returnId: string): string {
  // The shopper (or merchant) returns every fulfilled item not already in a live return.
  const returning = () => {
    const taken = returnsOf(order).filter((ret) => ret.status !== "CANCELED" && ret.status !== "DECLINED").flatMap((ret) => ret.lines);
    const lines = fulfillmentLines(order)
      .map((line) => ({ fulfillmentLineItemId: line.id, quantity: line.quantity - taken.filter((other) => other.fulfillmentLineItemId === line.id).reduce((sum, other) => sum + other.quantity, 0) }))
      .filter((line) => line.quantity > 0);
    if (lines.length === 0) throw new Error("Every fulfilled item is already in a return.");
    return lines;
  };
  switch (name) {
    case "request":
      simulator.returnAction(shop.domain, "returnRequest", { input: { orderId: order.id, returnLineItems: returning().map((line) => ({ ...line, customerNote: "Does not fit" })) } });
      break;
    case "create":
      simulator.returnAction(shop.domain, "returnCreate", { returnInput: { orderId: order.id, returnLineItems: returning() } });
      break;
    case "approve":
      simulator.returnAction(shop.domain, "returnApproveRequest", { input: { id: returnId } });
      break;
    case "decline":
      simulator.returnAction(shop.domain, "returnDeclineRequest", { input: { id: returnId, declineReason: "OTHER" } });
      break;
    case "cancel":
      simulator.returnAction(shop.domain, "returnCancel", { id: returnId });
      break;
    default:
      simulator.returnAction(shop.domain, "returnClose", { id: returnId });
  }
  return name;
}
