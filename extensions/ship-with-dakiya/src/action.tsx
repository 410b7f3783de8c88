import "@shopify/ui-extensions/preact";
import { useSignal } from "@preact/signals";
import { render } from "preact";
import { useEffect } from "preact/hooks";
import { createDakiyaApi, type ApiFailure, type OrderShipping, type RateView } from "../../shared/api";
import { FailureBanner, failureText } from "../../shared/views";
import { NoticeBanner, OrderBody, type Notice } from "./views";

export default async () => {
  render(<ShipWithDakiya />, document.body);
};

type Screen =
  | { kind: "loading" }
  | { kind: "no-order" }
  | { kind: "load-failed"; failure: ApiFailure }
  | { kind: "order"; order: OrderShipping };

const api = createDakiyaApi();

/** Keeps the merchant's pick while its courier is still offered, else the recommended one, else the first. */
export function pickCourier(rates: readonly RateView[], current: number | null): number | null {
  if (current !== null && rates.some((rate) => rate.courierId === current)) return current;
  return (rates.find((rate) => rate.isRecommended) ?? rates[0])?.courierId ?? null;
}

function ShipWithDakiya() {
  const { i18n } = shopify;
  const orderGid = shopify.data.selected[0]?.id;
  const screen = useSignal<Screen>({ kind: "loading" });
  const courierId = useSignal<number | null>(null);
  const booking = useSignal(false);
  const notice = useSignal<Notice | null>(null);

  const show = (order: OrderShipping) => {
    screen.value = { kind: "order", order };
    courierId.value = pickCourier(order.rates, courierId.value);
  };

  const load = async () => {
    notice.value = null;
    if (!orderGid) {
      screen.value = { kind: "no-order" };
      return;
    }
    screen.value = { kind: "loading" };
    const result = await api.getOrder(orderGid);
    if (result.ok) show(result.value);
    else screen.value = { kind: "load-failed", failure: result.failure };
  };

  const book = async () => {
    const chosen = courierId.value;
    if (!orderGid || chosen === null || booking.value) return;
    booking.value = true;
    notice.value = null;
    const result = await api.book(orderGid, chosen);
    booking.value = false;
    if (!result.ok) {
      notice.value = { tone: "critical", heading: i18n.translate("book.failed"), lines: [failureText(i18n, result.failure)] };
      return;
    }
    const { outcome, message, order } = result.value;
    switch (outcome) {
      case "booked": {
        show(order);
        const booked = order.shipment;
        // An order of several parcels: each parcel's awb, with its courier.
        const parcels = order.parcels?.flatMap((parcel) => (parcel.shipment?.awb ? [parcel.shipment] : [])) ?? [];
        notice.value =
          parcels.length > 1
            ? { tone: "success", heading: i18n.translate("book.bookedParcels", { count: parcels.length }), lines: parcels.map((parcel) => i18n.translate("book.parcelAwb", { name: parcel.name ?? "", courier: parcel.courierName ?? "", awb: parcel.awb ?? "" })) }
            : { tone: "success", heading: i18n.translate("book.booked", { courier: booked?.courierName ?? "" }), lines: booked?.awb ? [i18n.translate("book.awb", { awb: booked.awb })] : [] };
        return;
      }
      case "already_booked":
        show(order);
        notice.value = { tone: "info", heading: i18n.translate("book.alreadyBooked"), lines: [] };
        return;
      case "problems":
        show(order);
        notice.value = message ? { tone: "critical", heading: i18n.translate("book.failed"), lines: [message] } : null;
        return;
      case "refused":
      case "unavailable":
      case "not_found":
        // The rates stay on screen so the merchant can try again or pick another courier; fresh ones replace them.
        if (order.state === "ready") show(order);
        notice.value = {
          tone: "critical",
          heading: i18n.translate("book.failed"),
          lines: [message ?? i18n.translate("book.refused"), i18n.translate("book.tryAgain")],
        };
        return;
    }
  };

  useEffect(() => {
    void load();
    // Loads once per opening; `load` is recreated on every render but reads only stable values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const current = screen.value;
  const order = current.kind === "order" ? current.order : null;
  const chosenRate = order?.rates.find((rate) => rate.courierId === courierId.value);
  const close = () => shopify.close();

  const retryButton = (
    <s-button slot="primary-action" onClick={load}>
      {i18n.translate("actions.retry")}
    </s-button>
  );
  const closeButton = (label: string) => (
    <s-button slot="secondary-actions" onClick={close}>
      {label}
    </s-button>
  );

  let actions = null;
  if (current.kind === "load-failed" || order?.state === "unavailable") {
    actions = (
      <>
        {retryButton}
        {closeButton(i18n.translate("actions.close"))}
      </>
    );
  } else if (order?.state === "ready" && order.rates.length > 0) {
    actions = (
      <>
        <s-button
          slot="primary-action"
          variant="primary"
          loading={booking.value}
          disabled={chosenRate === undefined || booking.value}
          onClick={book}
        >
          {chosenRate
            ? i18n.translate("actions.book", { courier: chosenRate.name })
            : i18n.translate("actions.bookShipment")}
        </s-button>
        {closeButton(i18n.translate("actions.cancel"))}
      </>
    );
  } else if (order?.state === "problems" || order?.state === "ready") {
    // Problems to fix, or no courier for the pincode yet: nothing to book until something changes.
    actions = (
      <>
        <s-button slot="primary-action" onClick={load}>
          {i18n.translate("actions.checkAgain")}
        </s-button>
        {closeButton(i18n.translate("actions.close"))}
      </>
    );
  } else if (current.kind !== "loading") {
    // A shipment, a cancelled or unknown order: nothing left to do here.
    actions = (
      <s-button slot="primary-action" onClick={close}>
        {i18n.translate("actions.done")}
      </s-button>
    );
  }

  return (
    <s-admin-action
      heading={order ? i18n.translate("heading", { order: order.orderName }) : i18n.translate("name")}
      loading={current.kind === "loading"}
    >
      <s-stack gap="base">
        {notice.value && <NoticeBanner notice={notice.value} />}
        {current.kind === "loading" && <s-spinner accessibilityLabel={i18n.translate("loading")} />}
        {current.kind === "no-order" && <s-banner tone="warning">{i18n.translate("order.notFound")}</s-banner>}
        {current.kind === "load-failed" && (
          <FailureBanner i18n={i18n} heading={i18n.translate("loadFailed")} failure={current.failure} />
        )}
        {order && <OrderBody order={order} courierId={courierId} booking={booking.value} />}
      </s-stack>
      {actions}
    </s-admin-action>
  );
}
