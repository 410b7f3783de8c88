import "@shopify/ui-extensions/preact";
import { useSignal } from "@preact/signals";
import { render } from "preact";
import { useEffect } from "preact/hooks";
import {
  createDakiyaApi,
  type ApiFailure,
  type CodView,
  type OrderShipping,
  type ParcelView,
  type ReturnPickupView,
  type ShipmentHistoryEntry,
  type ShipmentView,
} from "../../shared/api";
import { formatDateTime, formatDay } from "../../shared/format";
import { FailureBanner, ProblemList, SHIPMENT_STATUS_TONES } from "../../shared/views";

export default async () => {
  render(<DakiyaShipmentBlock />, document.body);
};

/** Opens the "Ship with Dakiya" action (extensions/ship-with-dakiya) over this order page. */
export const SHIP_ACTION_URL = "extension:ship-with-dakiya";

type Screen =
  | { kind: "loading" }
  | { kind: "no-order" }
  | { kind: "load-failed"; failure: ApiFailure }
  | { kind: "order"; order: OrderShipping };

const api = createDakiyaApi();

/** History entries the card shows. */
const HISTORY_SHOWN = 5;
/** A return's states in Dakiya (app/returns/return-lifecycle.ts), each worded in this block's locales. */
const RETURN_STATES = ["requested", "approved", "held", "pickup_booked", "picked_up", "received", "processed", "inspected", "declined", "cancelled", "closed"];

function DakiyaShipmentBlock() {
  const { i18n } = shopify;
  const orderGid = shopify.data.selected[0]?.id;
  const screen = useSignal<Screen>({ kind: "loading" });
  const syncing = useSignal(false);
  const syncFailure = useSignal<ApiFailure | null>(null);

  const load = async () => {
    syncFailure.value = null;
    if (!orderGid) {
      screen.value = { kind: "no-order" };
      return;
    }
    screen.value = { kind: "loading" };
    const result = await api.getOrder(orderGid);
    screen.value = result.ok ? { kind: "order", order: result.value } : { kind: "load-failed", failure: result.failure };
  };

  const sync = async () => {
    if (!orderGid || syncing.value) return;
    syncing.value = true;
    syncFailure.value = null;
    const result = await api.sync(orderGid);
    syncing.value = false;
    // A failed sync keeps the last known shipment on screen under the error.
    if (result.ok) screen.value = { kind: "order", order: result.value.order };
    else syncFailure.value = result.failure;
  };

  useEffect(() => {
    void load();
    // Loads once per page view; `load` reads only values fixed for this order.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const current = screen.value;
  const order = current.kind === "order" ? current.order : null;
  const checkAgain = (label: string) => <s-button onClick={load}>{label}</s-button>;

  return (
    <s-admin-block heading={i18n.translate("heading")} collapsedSummary={order ? summary(order) : undefined}>
      <s-stack gap="base">
        {current.kind === "loading" && <s-spinner accessibilityLabel={i18n.translate("loading")} />}
        {current.kind === "no-order" && <s-paragraph>{i18n.translate("order.notFound")}</s-paragraph>}
        {current.kind === "load-failed" && (
          <>
            <FailureBanner i18n={i18n} heading={i18n.translate("loadFailed")} failure={current.failure} />
            {checkAgain(i18n.translate("actions.retry"))}
          </>
        )}
        {order?.cod && <CodSection cod={order.cod} />}
        {order?.decision && (
          <s-text color="subdued">
            {i18n.translate("decision", {
              reason: order.decision.reason,
              at: formatDateTime(i18n, order.decision.at),
            })}
          </s-text>
        )}
        {order?.state === "shipment" && order.shipment && (
          <>
            {syncFailure.value && <FailureBanner i18n={i18n} heading={i18n.translate("syncFailed")} failure={syncFailure.value} />}
            {order.parcels ? <Parcels parcels={order.parcels} /> : <ShipmentCard shipment={order.shipment} />}
            <s-button onClick={sync} loading={syncing.value} disabled={syncing.value}>
              {i18n.translate("actions.sync")}
            </s-button>
          </>
        )}
        {order?.state === "ready" && (
          <>
            {order.parcels && <Parcels parcels={order.parcels} />}
            <s-paragraph>{i18n.translate(order.parcels?.some((parcel) => parcel.shipment) ? "parcels.notAllShipped" : "notShipped")}</s-paragraph>
            <s-button variant="primary" onClick={() => shopify.navigation.navigate(SHIP_ACTION_URL)}>
              {i18n.translate("actions.ship")}
            </s-button>
          </>
        )}
        {order?.state === "problems" && (
          <>
            <ProblemList i18n={i18n} problems={order.problems} />
            {checkAgain(i18n.translate("actions.checkAgain"))}
          </>
        )}
        {order?.state === "cancelled" && <s-paragraph>{i18n.translate("order.cancelled")}</s-paragraph>}
        {order?.state === "not_found" && (
          <>
            <s-paragraph>{i18n.translate("order.notFound")}</s-paragraph>
            {checkAgain(i18n.translate("actions.checkAgain"))}
          </>
        )}
        {order?.returns?.map((ret) => <ReturnCard key={ret.returnName} ret={ret} orderGid={orderGid} />)}
        {order?.state === "unavailable" && (
          <>
            <s-banner tone="warning" heading={i18n.translate("order.unavailable")}>
              <s-paragraph>{order.message ?? i18n.translate("order.unavailableText")}</s-paragraph>
            </s-banner>
            {checkAgain(i18n.translate("actions.retry"))}
          </>
        )}
      </s-stack>
    </s-admin-block>
  );
}

/** Reasons of the risk the card lists, weightiest first; the ship page has them all. */
const REASONS_SHOWN = 4;

const RISK_TONES = { high: "critical", medium: "warning", low: "info", none: "neutral" } as const;

/** A cash-on-delivery order's RTO risk with its weightiest reasons, and where its shopper's confirmation stands. */
function CodSection({ cod }: { cod: CodView }) {
  const { i18n } = shopify;
  return (
    <s-stack gap="small">
      {cod.riskLevel && (
        <>
          <s-stack direction="inline" gap="small-200">
            <s-text type="strong">{i18n.translate("cod.risk")}</s-text>
            <s-badge tone={RISK_TONES[cod.riskLevel]}>{i18n.translate(`cod.levels.${cod.riskLevel}`)}</s-badge>
            <s-text color="subdued">{i18n.translate("cod.score", { score: cod.riskScore ?? 0 })}</s-text>
          </s-stack>
          {cod.reasons.slice(0, REASONS_SHOWN).map((reason, index) => (
            <s-text key={`${reason}-${index}`} color="subdued">
              {reason}
            </s-text>
          ))}
        </>
      )}
      {cod.confirmation && (
        <s-stack direction="inline" gap="small-200">
          <s-text type="strong">{i18n.translate("cod.confirmation")}</s-text>
          <s-badge tone={cod.confirmation.open ? "warning" : "neutral"}>{cod.confirmation.label}</s-badge>
          {cod.confirmation.open && <s-text color="subdued">{i18n.translate("cod.until", { deadline: formatDateTime(i18n, cod.confirmation.deadlineAt) })}</s-text>}
        </s-stack>
      )}
    </s-stack>
  );
}

/** An order that ships as several parcels: each with where it ships from, and its booking or what it holds. */
function Parcels({ parcels }: { parcels: ParcelView[] }) {
  const { i18n } = shopify;
  return (
    <s-stack gap="base">
      {parcels.map((parcel) => (
        <s-stack key={`${parcel.number}-${parcel.shipment?.awb ?? parcel.items.join()}`} gap="small">
          <s-text type="strong">
            {i18n.translate(parcel.location ? "parcels.headingFrom" : "parcels.heading", { number: parcel.number, of: parcel.of, location: parcel.location ?? "" })}
          </s-text>
          {parcel.shipment ? (
            <ShipmentCard shipment={parcel.shipment} />
          ) : (
            <>
              <s-text color="subdued">{i18n.translate("parcels.toBook")}</s-text>
              {parcel.items.map((item, index) => (
                <s-text key={`${item}-${index}`}>{item}</s-text>
              ))}
            </>
          )}
        </s-stack>
      ))}
    </s-stack>
  );
}

/** The app's Ship order page, where a return's reverse rates are quoted and its pickup booked. */
export const shipPageUrl = (orderGid: string) => `app:app/orders/${orderGid.split("/").pop()}/ship`;

/** The latest steps of a shipment's or a return's history, newest first: the card is small; the ship page has all of it. */
function HistoryLines({ entries }: { entries: ShipmentHistoryEntry[] }) {
  const { i18n } = shopify;
  if (entries.length === 0) return null;
  return (
    <s-stack gap="small-300">
      <s-text color="subdued">{i18n.translate("shipment.history")}</s-text>
      {entries.map((entry, index) => (
        <s-text key={`${entry.at}-${index}`}>{i18n.translate("shipment.by", { what: entry.what, when: formatDateTime(i18n, entry.at), by: entry.by })}</s-text>
      ))}
    </s-stack>
  );
}

/** A return of the order and its pickup back to the warehouse, apart from the order's own shipment. */
function ReturnCard({ ret, orderGid }: { ret: ReturnPickupView; orderGid: string | undefined }) {
  const { i18n } = shopify;
  // Where the return is in Dakiya, else (an older answer) Shopify's status.
  const status = ret.state && RETURN_STATES.includes(ret.state) ? i18n.translate(`returns.state.${ret.state}`) : ["REQUESTED", "OPEN", "DECLINED", "CANCELED", "CLOSED"].includes(ret.status) ? i18n.translate(`returns.status.${ret.status}`) : ret.status;
  const history = (ret.history ?? []).slice(-HISTORY_SHOWN).reverse();
  return (
    <s-stack gap="small">
      <s-stack direction="inline" gap="small-200">
        <s-text type="strong">{i18n.translate("returns.heading", { name: ret.returnName })}</s-text>
        <s-badge tone="info">{status}</s-badge>
        {ret.pickupLabel && <s-badge>{ret.receivedAt ? i18n.translate("returns.received") : ret.pickupLabel}</s-badge>}
      </s-stack>
      {ret.courierName && (
        <s-stack direction="inline" gap="small-200">
          <s-text color="subdued">{i18n.translate("returns.pickup")}</s-text>
          <s-text>{ret.courierName}</s-text>
        </s-stack>
      )}
      {ret.awb && (
        <s-stack direction="inline" gap="small-200">
          <s-text color="subdued">{i18n.translate("returns.awb")}</s-text>
          <s-text>{ret.awb}</s-text>
        </s-stack>
      )}
      {ret.trackingUrl && (
        <s-link href={ret.trackingUrl} target="_blank">
          {i18n.translate("returns.track")}
        </s-link>
      )}
      {ret.pickupLabel && ret.note && (
        <s-banner tone="warning" heading={i18n.translate("shipment.attention")}>
          <s-paragraph>{ret.note}</s-paragraph>
        </s-banner>
      )}
      <HistoryLines entries={history} />
      {!ret.pickupLabel && ret.status === "OPEN" && (
        <>
          <s-paragraph>{ret.note ?? i18n.translate("returns.notBooked")}</s-paragraph>
          {orderGid && <s-button href={shipPageUrl(orderGid)}>{i18n.translate("returns.book")}</s-button>}
        </>
      )}
    </s-stack>
  );
}

/** The one line the collapsed card shows (the admin cuts it at 30 characters). */
function summary(order: OrderShipping): string | undefined {
  const { i18n } = shopify;
  switch (order.state) {
    case "shipment":
      if (order.parcels) return i18n.translate("summary.parcels", { count: order.parcels.length });
      return order.shipment?.outcome?.label ?? order.shipment?.courierStatus?.label ?? order.shipment?.statusLabel;
    case "ready":
      return i18n.translate("summary.notShipped");
    case "problems":
      return i18n.translate("summary.problems", { count: order.problems.length });
    case "cancelled":
      return i18n.translate("summary.cancelled");
    case "not_found":
    case "unavailable":
      return undefined;
  }
}

function ShipmentCard({ shipment }: { shipment: ShipmentView }) {
  const { i18n } = shopify;
  const rows: [string, string][] = [];
  if (shipment.courierName) rows.push([i18n.translate("shipment.courier"), shipment.courierName]);
  if (shipment.awb) rows.push([i18n.translate("shipment.awb"), shipment.awb]);
  if (shipment.outcome) rows.push([i18n.translate("shipment.outcome"), shipment.outcome.label]);
  if (shipment.courierStatus) {
    rows.push([
      i18n.translate("shipment.courierStatus"),
      i18n.translate("shipment.at", {
        what: shipment.courierStatus.label,
        when: formatDateTime(i18n, shipment.courierStatus.at),
      }),
    ]);
  }
  if (shipment.lastEvent) {
    const { label, activity, location, at } = shipment.lastEvent;
    const what = location
      ? i18n.translate("shipment.eventAt", { label, activity, location })
      : i18n.translate("shipment.event", { label, activity });
    rows.push([i18n.translate("shipment.lastEvent"), i18n.translate("shipment.at", { what, when: formatDateTime(i18n, at) })]);
  }
  if (shipment.estimatedDelivery) {
    rows.push([i18n.translate("shipment.estimatedDelivery"), formatDay(i18n, shipment.estimatedDelivery)]);
  } else if (shipment.edd) {
    rows.push([i18n.translate("shipment.estimatedDelivery"), i18n.translate("shipment.days", { edd: shipment.edd })]);
  }
  // The latest few, newest first: the card is small; the ship page has the whole history.
  const history = (shipment.history ?? []).slice(-HISTORY_SHOWN).reverse();
  return (
    <s-stack gap="small">
      <s-badge tone={shipment.attention ? "warning" : SHIPMENT_STATUS_TONES[shipment.status]}>{shipment.statusLabel}</s-badge>
      {shipment.attention && (
        <s-banner tone="warning" heading={i18n.translate("shipment.attention")}>
          <s-paragraph>{shipment.attention}</s-paragraph>
        </s-banner>
      )}
      {rows.map(([label, value]) => (
        <s-stack key={label} direction="inline" gap="small-200">
          <s-text color="subdued">{label}</s-text>
          <s-text>{value}</s-text>
        </s-stack>
      ))}
      <HistoryLines entries={history} />
      {shipment.trackingUrl && (
        <s-link href={shipment.trackingUrl} target="_blank">
          {i18n.translate("shipment.track")}
        </s-link>
      )}
      {shipment.labelUrl && (
        <s-button href={shipment.labelUrl} target="_blank">
          {i18n.translate("actions.printLabel")}
        </s-button>
      )}
    </s-stack>
  );
}
