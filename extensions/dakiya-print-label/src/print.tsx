import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { createDakiyaApi, labelsPath, type OrderShipping } from "../../shared/api";

export default async () => {
  render(<PrintLabel />, document.body);
};

type Screen = { kind: "loading" } | { kind: "failed" } | { kind: "order"; order: OrderShipping };

const api = createDakiyaApi();

/**
 * "Dakiya shipping label" in the order page's Print menu: the booked shipment's 4 × 6 in (or A4) label as the
 * print preview. An order not booked yet, or cancelled, gets a line saying so and nothing to print.
 */
function PrintLabel() {
  const { i18n } = shopify;
  const orderGid = shopify.data.selected[0]?.id;
  const [screen, setScreen] = useState<Screen>({ kind: "loading" });

  useEffect(() => {
    if (!orderGid) return setScreen({ kind: "failed" });
    void api.getOrder(orderGid).then((result) => setScreen(result.ok ? { kind: "order", order: result.value } : { kind: "failed" }));
  }, [orderGid]);

  if (screen.kind === "loading") {
    return (
      <s-admin-print-action>
        <s-spinner accessibilityLabel={i18n.translate("loading")} />
      </s-admin-print-action>
    );
  }
  if (screen.kind === "failed") {
    return (
      <s-admin-print-action>
        <s-banner tone="critical">{i18n.translate("loadFailed")}</s-banner>
      </s-admin-print-action>
    );
  }
  const { order } = screen;
  const shipment = order.shipment;
  if (!orderGid || !shipment?.awb || !shipment.labelUrl) {
    return (
      <s-admin-print-action>
        <s-text>{i18n.translate(shipment?.status === "cancelled" || order.state === "cancelled" ? "cancelled" : "notBooked", { order: order.orderName })}</s-text>
      </s-admin-print-action>
    );
  }
  return (
    <s-admin-print-action src={labelsPath([orderGid])}>
      <s-text>{i18n.translate("ready", { order: order.orderName, courier: shipment.courierName ?? "", awb: shipment.awb })}</s-text>
    </s-admin-print-action>
  );
}
