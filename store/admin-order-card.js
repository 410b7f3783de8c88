/*
 * The local admin's stand-in for Dakiya's order-page extensions (store/admin-orders.ts serves it): the block as a
 * card and the "Ship with Dakiya" action as a dialog, in plain DOM, on the same backend routes and answers the
 * extensions use (extensions/shared/api.ts). As the admin's fetch does, each call goes to the app's own origin
 * with `Authorization: Bearer <session token>` (a fresh one from the shell each time: they live 60 s), so the
 * browser sends the CORS preflight the real admin sends. Everything shown is set as text, never as HTML.
 */
(() => {
  const card = document.getElementById("dakiya-card");
  const dialog = document.getElementById("dakiya-action");
  if (!card || !dialog) return;
  const { orderId, shop, appUrl } = card.dataset;
  const cardBody = card.querySelector(".dakiya-body");
  const dialogBody = dialog.querySelector(".dialog-body");
  const dialogFoot = dialog.querySelector(".dialog-foot");

  const money = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR" });
  const dateTime = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" });
  const day = new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeZone: "Asia/Kolkata" });
  const TIMEOUT_MS = { read: 15000, write: 45000 };
  const STATUS_TONE = { booking: "attention", booked: "info", fulfilled: "success", failed: "critical", cancelled: "" };

  /** An element with attributes (`on…` are listeners) and children (strings become text). */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name === "class") node.className = value;
      else if (name === "checked" || name === "disabled") node[name] = Boolean(value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
    return node;
  }

  const sessionToken = async () => {
    const response = await fetch("/__shell/session-token?shop=" + encodeURIComponent(shop), { cache: "no-store" });
    if (!response.ok) throw new Error("no session token");
    return response.text();
  };

  /** One call to the app: `{ ok, value }`, or `{ ok: false, error }` in words for a failure of any kind. */
  async function api(path, body, timeoutMs) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const headers = { Accept: "application/json", Authorization: "Bearer " + (await sessionToken()) };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const response = await fetch(new URL(path, appUrl), {
        method: body === undefined ? "GET" : "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok) return { ok: false, error: "Dakiya answered with an error (" + response.status + "). Try again." };
      return { ok: true, value: await response.json() };
    } catch {
      return { ok: false, error: controller.signal.aborted ? "Dakiya took too long to answer. Try again." : "Dakiya could not be reached. Try again." };
    } finally {
      clearTimeout(timer);
    }
  }

  const orderPath = "/api/orders/" + encodeURIComponent(orderId);
  const banner = (tone, heading, ...lines) => el("div", { class: "banner " + tone, role: tone === "critical" ? "alert" : "status" }, heading ? el("p", {}, el("strong", {}, heading)) : null, lines.map((line) => (line instanceof Node ? line : el("p", {}, line))));
  const button = (label, onclick, options) => el("button", { type: "button", onclick, ...(options || {}) }, label);
  const trackingLink = (url) => (url && /^https?:\/\//.test(url) ? el("a", { href: url, target: "_blank", rel: "noopener noreferrer" }, "Track shipment") : null);

  function problemList(problems) {
    return banner("warning", "This order can't be shipped yet", el("ul", {}, problems.map((problem) => el("li", {}, el("strong", {}, problem.message), " ", problem.fix))));
  }

  function shipmentDetails(shipment) {
    const facts = [];
    const fact = (label, value) => facts.push(el("dt", {}, label), el("dd", {}, value));
    if (shipment.courierName) fact("Courier", shipment.courierName);
    if (shipment.awb) fact("AWB", shipment.awb);
    if (shipment.totalCharges !== null) fact("Charges", money.format(shipment.totalCharges));
    if (shipment.courierStatus) fact("Courier status", shipment.courierStatus.label + " · " + dateTime.format(new Date(shipment.courierStatus.at)));
    if (shipment.lastEvent) {
      const { label, activity, location, at } = shipment.lastEvent;
      fact("Last update", label + ": " + activity + (location ? ", " + location : "") + " · " + dateTime.format(new Date(at)));
    }
    if (shipment.estimatedDelivery) fact("Estimated delivery", day.format(new Date(shipment.estimatedDelivery)));
    else if (shipment.edd) fact("Estimated delivery", shipment.edd + " days");
    return el(
      "div",
      { class: "shipment" },
      el("span", { class: "badge " + (shipment.attention ? "attention" : STATUS_TONE[shipment.status] || "") }, shipment.statusLabel),
      shipment.attention ? banner("warning", "Needs your attention", shipment.attention) : null,
      el("dl", { class: "facts" }, facts),
      trackingLink(shipment.trackingUrl),
    );
  }

  /** What both the card and the dialog say about an order that is not ready to book. */
  function stateMessage(order) {
    switch (order.state) {
      case "problems":
        return problemList(order.problems);
      case "cancelled":
        return el("p", {}, "This order is cancelled; Dakiya will not ship it.");
      case "not_found":
        return el("p", {}, "Dakiya can't find this order in Shopify.");
      case "unavailable":
        return banner("warning", "Dakiya can't get this order's rates right now", order.message || "Try again in a minute.");
      default:
        return null;
    }
  }

  // The block: the order's shipment, or what stops it shipping, or a way to ship it.

  let syncing = false;

  async function loadCard() {
    cardBody.replaceChildren(el("p", { class: "muted" }, "Loading…"));
    const result = await api(orderPath, undefined, TIMEOUT_MS.read);
    if (result.ok) renderCard(result.value);
    else cardBody.replaceChildren(banner("critical", "Dakiya could not load this order", result.error), button("Try again", loadCard));
  }

  function renderCard(order, syncError) {
    const parts = [];
    if (order.decision) parts.push(el("p", { class: "muted" }, "Auto-booking: " + order.decision.reason + " (" + dateTime.format(new Date(order.decision.at)) + ")"));
    if (order.state === "shipment" && order.shipment) {
      if (syncError) parts.push(banner("critical", "Sync failed", syncError));
      parts.push(shipmentDetails(order.shipment), button(syncing ? "Syncing…" : "Sync now", () => sync(order), { disabled: syncing }));
    } else if (order.state === "ready") {
      parts.push(el("p", {}, "Not shipped with Dakiya yet."), button("Ship with Dakiya", openAction, { class: "primary" }));
    } else {
      parts.push(stateMessage(order));
      if (order.state !== "cancelled") parts.push(button(order.state === "unavailable" ? "Try again" : "Check again", loadCard));
    }
    for (const pickup of order.returns || []) parts.push(returnDetails(pickup));
    cardBody.replaceChildren(...parts.filter(Boolean));
  }

  // A return's pickup back to the warehouse, told apart from the order's own shipment.
  function returnDetails(pickup) {
    const facts = el("dl", { class: "facts" });
    const fact = (label, value) => facts.append(el("dt", {}, label), el("dd", {}, value));
    if (pickup.courierName) fact("Courier", pickup.courierName);
    if (pickup.awb) fact("AWB", pickup.awb);
    if (pickup.receivedAt) fact("Back at the warehouse", dateTime.format(new Date(pickup.receivedAt)));
    return el(
      "div",
      { class: "return" },
      el("h3", {}, "Return " + pickup.returnName),
      el("span", { class: "badge" }, pickup.pickupLabel || ("Return " + pickup.status.toLowerCase())),
      pickup.note ? el("p", { class: "muted" }, pickup.note) : null,
      facts,
      trackingLink(pickup.trackingUrl),
    );
  }

  async function sync(order) {
    if (syncing) return;
    syncing = true;
    renderCard(order);
    const result = await api(orderPath + "/sync", {}, TIMEOUT_MS.write);
    syncing = false;
    // A failed sync keeps the last known shipment on screen under the error.
    if (result.ok) renderCard(result.value.order);
    else renderCard(order, result.error);
  }

  // The action: the rates with the recommended courier chosen, Book, then the awb and the tracking link.

  let action = { order: null, courierId: null, notice: null, booking: false, error: null, loading: false };

  function pickCourier(rates, current) {
    if (current !== null && rates.some((rate) => rate.courierId === current)) return current;
    const chosen = rates.find((rate) => rate.isRecommended) || rates[0];
    return chosen ? chosen.courierId : null;
  }

  async function openAction() {
    action = { order: null, courierId: null, notice: null, booking: false, error: null, loading: true };
    renderAction();
    if (!dialog.open) dialog.showModal();
    const result = await api(orderPath, undefined, TIMEOUT_MS.read);
    action.loading = false;
    if (result.ok) {
      action.order = result.value;
      action.courierId = pickCourier(result.value.rates, null);
    } else action.error = result.error;
    renderAction();
  }

  function closeAction() {
    dialog.close();
    void loadCard();
  }

  function rateChoices(rates) {
    return el(
      "fieldset",
      {},
      el("legend", { class: "muted" }, "Choose a courier"),
      rates.map((rate) =>
        el(
          "label",
          {},
          el("input", {
            type: "radio",
            name: "courier",
            value: rate.courierId,
            checked: rate.courierId === action.courierId,
            disabled: action.booking,
            onchange: () => {
              action.courierId = rate.courierId;
              renderAction();
            },
          }),
          el("span", {}, rate.name + " · " + rate.mode + " · " + money.format(rate.totalCharges) + " · " + rate.edd + " days"),
          rate.isRecommended ? el("span", { class: "badge info" }, "Recommended") : null,
          rate.isCheapest ? el("span", { class: "badge success" }, "Cheapest") : null,
          rate.isFastest ? el("span", { class: "badge success" }, "Fastest") : null,
        ),
      ),
    );
  }

  function renderAction() {
    const { order, notice } = action;
    const body = [];
    if (notice) body.push(notice);
    if (action.loading) body.push(el("p", { class: "muted" }, "Loading…"));
    if (action.error) body.push(banner("critical", "Dakiya could not load this order", action.error));
    if (order) {
      if (order.decision) body.push(el("p", { class: "muted" }, "Auto-booking: " + order.decision.reason));
      if (order.state === "ready") body.push(order.rates.length > 0 ? rateChoices(order.rates) : el("p", {}, "No courier serves this order's route."));
      else if (order.state === "shipment" && order.shipment) body.push(shipmentDetails(order.shipment));
      else body.push(stateMessage(order));
    }
    dialogBody.replaceChildren(...body.filter(Boolean));

    const chosen = order && order.rates.find((rate) => rate.courierId === action.courierId);
    const foot = [];
    if (action.error || (order && order.state === "unavailable")) foot.push(button("Close", closeAction), button("Try again", openAction, { class: "primary" }));
    else if (order && order.state === "ready" && order.rates.length > 0) {
      foot.push(
        button("Cancel", closeAction, { disabled: action.booking }),
        button(action.booking ? "Booking…" : chosen ? "Book with " + chosen.name : "Book shipment", book, { class: "primary", disabled: !chosen || action.booking }),
      );
    } else foot.push(button(order && order.state === "shipment" ? "Done" : "Close", closeAction, { disabled: action.loading }));
    dialogFoot.replaceChildren(...foot);
  }

  async function book() {
    const courierId = action.courierId;
    if (courierId === null || action.booking) return;
    action.booking = true;
    action.notice = null;
    renderAction();
    const result = await api(orderPath + "/book", { courierId }, TIMEOUT_MS.write);
    action.booking = false;
    if (!result.ok) {
      action.notice = banner("critical", "Not booked", result.error);
      renderAction();
      return;
    }
    const { outcome, message, order } = result.value;
    const shipment = order.shipment;
    if (outcome === "booked") {
      action.order = order;
      action.notice = banner("success", "Booked with " + ((shipment && shipment.courierName) || "the courier"), ...(shipment && shipment.awb ? ["AWB " + shipment.awb] : []), ...(message ? [message] : []));
    } else if (outcome === "already_booked") {
      action.order = order;
      action.notice = banner("info", "This order is already booked");
    } else if (outcome === "problems") {
      action.order = order;
      action.notice = message ? banner("critical", "Not booked", message) : null;
    } else {
      // The rates stay on screen to try again or choose another courier; fresh ones replace them.
      if (order.state === "ready") {
        action.order = order;
        action.courierId = pickCourier(order.rates, courierId);
      }
      action.notice = banner("critical", "Not booked", message || "The courier refused the booking.", "Choose a courier and try again.");
    }
    renderAction();
    renderCard(order);
  }

  dialog.addEventListener("cancel", () => void loadCard());
  for (const opener of document.querySelectorAll("[data-open-action]")) {
    opener.addEventListener("click", () => {
      opener.closest("details")?.removeAttribute("open");
      void openAction();
    });
  }
  void loadCard();
})();
