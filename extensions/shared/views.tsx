import "@shopify/ui-extensions/preact";
import type { I18n } from "@shopify/ui-extensions/admin";
import type { ApiFailure, Problem, ShipmentStatus } from "./api";

/**
 * What the admin extensions show alike, once: a request to the app that failed, an order's problems with their fixes,
 * and a shipment status's tone. Each extension's own locale files hold the words (`failure.*`, `problems.*`); the
 * extension passes its `i18n`, so this bundles with each one like the rest of shared/.
 */

/** Why the app's answer did not come, in the admin's language. */
export function failureText(i18n: I18n, failure: ApiFailure): string {
  switch (failure.kind) {
    case "network":
      return i18n.translate("failure.network");
    case "timeout":
      return i18n.translate("failure.timeout");
    case "status":
      return i18n.translate("failure.status", { status: failure.status });
    case "malformed":
      return i18n.translate("failure.malformed");
  }
}

export function FailureBanner({ i18n, heading, failure }: { i18n: I18n; heading: string; failure: ApiFailure }) {
  return (
    <s-banner tone="critical" heading={heading}>
      <s-paragraph>{failureText(i18n, failure)}</s-paragraph>
    </s-banner>
  );
}

/** What stops an order from shipping, each with what to do. */
export function ProblemList({ i18n, problems }: { i18n: I18n; problems: Problem[] }) {
  return (
    <s-banner tone="warning" heading={i18n.translate("problems.heading")}>
      <s-unordered-list>
        {problems.map((problem) => (
          <s-list-item key={problem.code}>
            <s-text type="strong">{problem.message}</s-text> <s-text>{i18n.translate("problems.fix", { fix: problem.fix })}</s-text>
          </s-list-item>
        ))}
      </s-unordered-list>
    </s-banner>
  );
}

/** A shipment status's one tone on every extension. */
export const SHIPMENT_STATUS_TONES: Readonly<Record<ShipmentStatus, "caution" | "info" | "success" | "critical" | "neutral">> = {
  booking: "caution",
  booked: "info",
  fulfilled: "success",
  failed: "critical",
  cancelled: "neutral",
};
