import type { Signal } from "@preact/signals";
import { RATE_BADGE_TONES } from "../../shared/badge-tones";
import type { OrderShipping, ParcelView, RateView, ShipmentView } from "../../shared/api";
import { formatDay, formatRupees } from "../../shared/format";
import { ProblemList, SHIPMENT_STATUS_TONES } from "../../shared/views";

export interface Notice {
  tone: "success" | "info" | "critical";
  heading: string;
  lines: string[];
}

export function NoticeBanner({ notice }: { notice: Notice }) {
  return (
    <s-banner tone={notice.tone} heading={notice.heading}>
      {notice.lines.map((line) => (
        <s-paragraph key={line}>{line}</s-paragraph>
      ))}
    </s-banner>
  );
}

export function OrderBody({
  order,
  courierId,
  booking,
}: {
  order: OrderShipping;
  courierId: Signal<number | null>;
  booking: boolean;
}) {
  const { i18n } = shopify;
  return (
    <s-stack gap="base">
      {order.decision && (
        <s-text color="subdued">{i18n.translate("decision", { reason: order.decision.reason })}</s-text>
      )}
      {order.parcels && <ParcelList parcels={order.parcels} />}
      {order.state === "ready" &&
        (order.rates.length > 0 ? (
          <>
            {order.parcels && <s-paragraph>{i18n.translate("parcels.bookEach")}</s-paragraph>}
            <RateChoices rates={order.rates} courierId={courierId} disabled={booking} />
          </>
        ) : (
          <s-paragraph>{i18n.translate("rates.none")}</s-paragraph>
        ))}
      {order.state === "problems" && <ProblemList i18n={i18n} problems={order.problems} />}
      {order.state === "shipment" && order.shipment && !order.parcels && <ShipmentDetails shipment={order.shipment} />}
      {order.state === "cancelled" && <s-banner tone="info">{i18n.translate("order.cancelled")}</s-banner>}
      {order.state === "not_found" && <s-banner tone="warning">{i18n.translate("order.notFound")}</s-banner>}
      {order.state === "unavailable" && (
        <s-banner tone="warning" heading={i18n.translate("order.unavailable")}>
          <s-paragraph>{order.message ?? i18n.translate("order.unavailableText")}</s-paragraph>
        </s-banner>
      )}
    </s-stack>
  );
}

/** An order that ships as several parcels: each with where it ships from, and its booking or what goes in it. */
function ParcelList({ parcels }: { parcels: ParcelView[] }) {
  const { i18n } = shopify;
  return (
    <s-stack gap="base">
      {parcels.map((parcel) => (
        <s-stack key={`${parcel.number}-${parcel.shipment?.awb ?? parcel.items.join()}`} gap="small-200">
          <s-text type="strong">
            {i18n.translate(parcel.location ? "parcels.headingFrom" : "parcels.heading", { number: parcel.number, of: parcel.of, location: parcel.location ?? "" })}
          </s-text>
          {parcel.shipment ? <ShipmentDetails shipment={parcel.shipment} /> : <s-text color="subdued">{i18n.translate("parcels.toBook", { items: parcel.items.join(", ") })}</s-text>}
        </s-stack>
      ))}
    </s-stack>
  );
}

function RateChoices({
  rates,
  courierId,
  disabled,
}: {
  rates: RateView[];
  courierId: Signal<number | null>;
  disabled: boolean;
}) {
  const { i18n } = shopify;
  const selected = courierId.value === null ? [] : [String(courierId.value)];
  return (
    <s-choice-list
      label={i18n.translate("rates.label")}
      name="courier"
      values={selected}
      disabled={disabled}
      onChange={(event) => {
        const value = event.currentTarget.values[0];
        if (value !== undefined) courierId.value = Number(value);
      }}
    >
      {rates.map((rate) => (
        <s-choice key={rate.courierId} value={String(rate.courierId)} selected={rate.courierId === courierId.value}>
          {i18n.translate("rates.option", {
            name: rate.name,
            mode: rate.mode,
            price: formatRupees(i18n, rate.totalCharges),
            edd: rate.edd,
          })}
          {rate.isRecommended && <s-badge tone={RATE_BADGE_TONES.recommended}>{i18n.translate("rates.recommended")}</s-badge>}
          {rate.isCheapest && <s-badge tone={RATE_BADGE_TONES.cheapest}>{i18n.translate("rates.cheapest")}</s-badge>}
          {rate.isFastest && <s-badge tone={RATE_BADGE_TONES.fastest}>{i18n.translate("rates.fastest")}</s-badge>}
        </s-choice>
      ))}
    </s-choice-list>
  );
}

function ShipmentDetails({ shipment }: { shipment: ShipmentView }) {
  const { i18n } = shopify;
  const rows: [string, string][] = [];
  if (shipment.courierName) rows.push([i18n.translate("shipment.courier"), shipment.courierName]);
  if (shipment.awb) rows.push([i18n.translate("shipment.awb"), shipment.awb]);
  if (shipment.totalCharges !== null) {
    rows.push([i18n.translate("shipment.charges"), formatRupees(i18n, shipment.totalCharges)]);
  }
  if (shipment.estimatedDelivery) {
    rows.push([i18n.translate("shipment.estimatedDelivery"), formatDay(i18n, shipment.estimatedDelivery)]);
  } else if (shipment.edd) {
    rows.push([i18n.translate("shipment.estimatedDelivery"), i18n.translate("shipment.days", { edd: shipment.edd })]);
  }
  return (
    <s-stack gap="small">
      <s-badge tone={SHIPMENT_STATUS_TONES[shipment.status]}>{shipment.statusLabel}</s-badge>
      {shipment.attention && <s-banner tone="warning">{shipment.attention}</s-banner>}
      {rows.map(([label, value]) => (
        <s-stack key={label} direction="inline" gap="small-200">
          <s-text color="subdued">{label}</s-text>
          <s-text>{value}</s-text>
        </s-stack>
      ))}
      {shipment.trackingUrl && (
        <s-link href={shipment.trackingUrl} target="_blank">
          {i18n.translate("shipment.track")}
        </s-link>
      )}
    </s-stack>
  );
}
