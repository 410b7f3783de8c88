import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { LABELS_PER_DOCUMENT, labelsPath } from "../../shared/api";

export default async () => {
  render(<PrintLabels />, document.body);
};

/**
 * "Dakiya shipping labels" in the Print menu of the orders selected in the admin's list: every booked one's label
 * in one PDF; orders not booked yet (or cancelled) are left out, and the preview says so.
 */
function PrintLabels() {
  const { i18n } = shopify;
  const orderGids = shopify.data.selected.map((order) => order.id);
  if (orderGids.length > LABELS_PER_DOCUMENT) {
    return (
      <s-admin-print-action>
        <s-banner tone="warning">{i18n.translate("tooMany", { limit: LABELS_PER_DOCUMENT, count: orderGids.length })}</s-banner>
      </s-admin-print-action>
    );
  }
  if (orderGids.length === 0) {
    return (
      <s-admin-print-action>
        <s-text>{i18n.translate("noneSelected")}</s-text>
      </s-admin-print-action>
    );
  }
  return (
    <s-admin-print-action src={labelsPath(orderGids, { bookedOnly: true })}>
      <s-text>{i18n.translate("ready", { count: orderGids.length })}</s-text>
    </s-admin-print-action>
  );
}
