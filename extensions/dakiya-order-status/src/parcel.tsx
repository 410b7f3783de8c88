import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { CustomerParcel, FailedAttemptView, ParcelStage } from "../../shared/customer-parcel";
import { loadParcel, type ParcelLoad } from "./parcel-api";

export default async () => {
  render(<ParcelTracking />, document.body);
};

/**
 * The shopper's parcel, after each fulfillment on their order status page: where it is, when it comes, the courier
 * and awb, the courier's updates, and — while a delivery attempt has failed — what happened and what comes next. In
 * the shopper's language (English, Hindi); the courier's own words are kept as the courier gave them. A fulfillment
 * that is not a Dakiya parcel of this customer shows nothing.
 */
function ParcelTracking() {
  const { i18n } = shopify;
  const [screen, setScreen] = useState<ParcelLoad | { kind: "loading" }>({ kind: "loading" });
  const load = () => {
    setScreen({ kind: "loading" });
    void loadParcel(shopify.fulfillmentId, () => shopify.sessionToken.get()).then(setScreen);
  };
  useEffect(load, []);

  switch (screen.kind) {
    case "loading":
      return <s-spinner accessibilityLabel={i18n.translate("loading")} />;
    case "none":
      return null;
    case "login":
      return <s-button onClick={() => void shopify.requireLogin()}>{i18n.translate("signIn")}</s-button>;
    case "failed":
      return (
        <s-stack gap="small-200">
          <s-text>{i18n.translate("loadFailed")}</s-text>
          <s-button onClick={load}>{i18n.translate("tryAgain")}</s-button>
        </s-stack>
      );
    default:
      return <Parcel parcel={screen.parcel} />;
  }
}

const STAGE_TONE: Readonly<Record<ParcelStage, "auto" | "neutral" | "critical">> = {
  preparing: "neutral",
  in_transit: "neutral",
  out_for_delivery: "auto",
  delivery_failed: "critical",
  delivered: "auto",
  returning: "critical",
  returned: "critical",
  problem: "critical",
  cancelled: "neutral",
};

function day(iso: string): string {
  return shopify.i18n.formatDate(new Date(iso), { weekday: "short", day: "numeric", month: "short" });
}

function when(iso: string): string {
  return shopify.i18n.formatDate(new Date(iso), { day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
}

function Parcel({ parcel }: { parcel: CustomerParcel }) {
  const { i18n } = shopify;
  const dated = parcel.deliveredAt ? i18n.translate("deliveredOn", { date: day(parcel.deliveredAt) }) : parcel.estimatedDelivery ? i18n.translate("expected", { date: day(parcel.estimatedDelivery) }) : null;
  return (
    <s-section heading={i18n.translate("heading", { parcel: parcel.name })}>
      <s-stack gap="base">
        <s-stack direction="inline" gap="small-200" alignItems="center">
          <s-badge tone={STAGE_TONE[parcel.stage]}>{i18n.translate(`stage.${parcel.stage}`)}</s-badge>
          {dated ? <s-text>{dated}</s-text> : null}
        </s-stack>
        {parcel.courierName && parcel.awb ? <s-text>{i18n.translate("carrier", { courier: parcel.courierName, awb: parcel.awb })}</s-text> : null}
        {parcel.stage === "problem" ? <s-text>{i18n.translate("problemHelp")}</s-text> : null}
        {parcel.failedAttempt ? <FailedAttempt failed={parcel.failedAttempt} /> : null}
        {parcel.trackingUrl ? (
          <s-link href={parcel.trackingUrl} target="_blank">
            {i18n.translate("trackingPage")}
          </s-link>
        ) : null}
        <s-heading>{i18n.translate("timeline")}</s-heading>
        {parcel.timeline.length === 0 ? (
          <s-text color="subdued">{i18n.translate("noUpdates")}</s-text>
        ) : (
          <s-ordered-list>
            {parcel.timeline.map((update) => (
              <s-list-item key={`${update.at}-${update.code}`}>
                <s-stack gap="none">
                  <s-text type="strong">{i18n.translate("updateAt", { date: when(update.at), stage: i18n.translate(`updates.${update.code}`) })}</s-text>
                  {/* The courier's words stay English, as said; marked so in Hindi. */}
                  <s-text color="subdued" lang="en">
                    {update.location ? i18n.translate("courierSaidAt", { activity: update.activity, place: update.location }) : i18n.translate("courierSaid", { activity: update.activity })}
                  </s-text>
                </s-stack>
              </s-list-item>
            ))}
          </s-ordered-list>
        )}
      </s-stack>
    </s-section>
  );
}

/**
 * A failed delivery attempt: which one, the courier's reason, and what comes next. This is the place of the
 * shopper's answer to it (try again, another day, another address or phone, or send it back): when the app's answer
 * carries `answerForm` (extensions/shared/customer-parcel.ts), its form goes here, in place of the line on what comes
 * next. The app sends none yet.
 */
function FailedAttempt({ failed }: { failed: FailedAttemptView }) {
  const { i18n } = shopify;
  return (
    <s-banner tone="warning" heading={i18n.translate("failed.heading")}>
      <s-stack gap="small-200">
        <s-text>{i18n.translate("failed.attempt", { count: failed.attempt, reason: failed.reason })}</s-text>
        {/* The answer form goes here once the app sends failed.answerForm: its choices, POSTed to its submitPath with the session token. */}
        <s-text>{i18n.translate("failed.next")}</s-text>
      </s-stack>
    </s-banner>
  );
}
