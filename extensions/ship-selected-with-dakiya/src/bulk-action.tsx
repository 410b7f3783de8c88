import "@shopify/ui-extensions/preact";
import { useSignal } from "@preact/signals";
import { render } from "preact";
import {
  BULK_SHIP_LIMIT,
  chunk,
  createDakiyaApi,
  legacyIdOf,
  type ApiFailure,
  type BulkOutcome,
  type BulkResult,
} from "../../shared/api";
import { failureText } from "../../shared/views";

export default async () => {
  render(<ShipSelectedWithDakiya />, document.body);
};

type Run =
  | { kind: "idle" }
  /** `batch` is the index of the chunk in flight. */
  | { kind: "running"; batch: number }
  /** The chunk at `batch` got no answer; earlier chunks' results stand. */
  | { kind: "stopped"; batch: number; failure: ApiFailure }
  | { kind: "done" };

const api = createDakiyaApi();

function ShipSelectedWithDakiya() {
  const { i18n } = shopify;
  const orderGids = shopify.data.selected.map((order) => order.id);
  const batches = chunk(orderGids, BULK_SHIP_LIMIT);
  const run = useSignal<Run>({ kind: "idle" });
  const results = useSignal<BulkResult[]>([]);

  // Chunks go one after another, so progress reads in the merchant's order and a failure stops at one chunk.
  const shipFrom = async (start: number) => {
    for (let batch = start; batch < batches.length; batch += 1) {
      run.value = { kind: "running", batch };
      const sent = batches[batch]!;
      const answer = await api.bulkShip(sent);
      if (!answer.ok) {
        run.value = { kind: "stopped", batch, failure: answer.failure };
        return;
      }
      results.value = [...results.value, ...withEveryOrder(sent, answer.value.results)];
    }
    run.value = { kind: "done" };
  };

  const count = orderGids.length;
  const state = run.value;
  const close = () => shopify.close();

  if (count === 0) {
    return (
      <s-admin-action heading={i18n.translate("name")}>
        <s-paragraph>{i18n.translate("empty")}</s-paragraph>
        <s-button slot="primary-action" onClick={close}>
          {i18n.translate("actions.close")}
        </s-button>
      </s-admin-action>
    );
  }

  const done = results.value.length;
  return (
    <s-admin-action heading={i18n.translate("heading", { count })}>
      <s-stack gap="base">
        {state.kind === "idle" && <s-paragraph>{i18n.translate("intro")}</s-paragraph>}
        {state.kind === "running" && (
          <s-stack direction="inline" gap="small" alignItems="center">
            <s-spinner accessibilityLabel={i18n.translate("progress.sending")} />
            <s-text>
              {i18n.translate("progress.batch", { batch: state.batch + 1, batches: batches.length })}
            </s-text>
            <s-text color="subdued">{i18n.translate("progress.done", { done, total: count })}</s-text>
          </s-stack>
        )}
        {state.kind === "stopped" && (
          <s-banner
            tone="critical"
            heading={i18n.translate("stopped.heading", { batch: state.batch + 1, batches: batches.length })}
          >
            <s-paragraph>{failureText(i18n, state.failure)}</s-paragraph>
            <s-paragraph>{i18n.translate("stopped.rest", { done, total: count })}</s-paragraph>
          </s-banner>
        )}
        {done > 0 && <Summary results={results.value} />}
        {done > 0 && <ResultTable results={results.value} />}
      </s-stack>
      {state.kind === "idle" && (
        <>
          <s-button slot="primary-action" variant="primary" onClick={() => shipFrom(0)}>
            {i18n.translate("actions.ship", { count })}
          </s-button>
          <s-button slot="secondary-actions" onClick={close}>
            {i18n.translate("actions.cancel")}
          </s-button>
        </>
      )}
      {state.kind === "running" && (
        <s-button slot="primary-action" variant="primary" loading disabled>
          {i18n.translate("actions.ship", { count })}
        </s-button>
      )}
      {state.kind === "stopped" && (
        <>
          <s-button slot="primary-action" onClick={() => shipFrom(state.batch)}>
            {i18n.translate("actions.retry")}
          </s-button>
          <s-button slot="secondary-actions" onClick={close}>
            {i18n.translate("actions.close")}
          </s-button>
        </>
      )}
      {state.kind === "done" && (
        <s-button slot="primary-action" onClick={close}>
          {i18n.translate("actions.done")}
        </s-button>
      )}
    </s-admin-action>
  );
}

/** The answer's results in the order sent; an order the backend left out is shown as failed, never dropped. */
function withEveryOrder(sent: readonly string[], answered: readonly BulkResult[]): BulkResult[] {
  const byOrder = new Map(answered.map((result) => [result.orderId, result]));
  return sent.map(
    (orderId) =>
      byOrder.get(orderId) ?? {
        orderId,
        orderName: shopify.i18n.translate("results.unnamed", { id: legacyIdOf(orderId) }),
        outcome: "failed",
        awb: null,
        courierName: null,
        reason: shopify.i18n.translate("results.noAnswer"),
      },
  );
}

function Summary({ results }: { results: BulkResult[] }) {
  const tally = (outcome: BulkOutcome) => results.filter((result) => result.outcome === outcome).length;
  return (
    <s-text type="strong">
      {shopify.i18n.translate("summary", {
        booked: tally("booked"),
        held: tally("held"),
        already: tally("already_booked"),
        failed: tally("failed"),
      })}
    </s-text>
  );
}

const OUTCOME_TONE: Record<BulkOutcome, "success" | "caution" | "info" | "critical"> = {
  booked: "success",
  held: "caution",
  already_booked: "info",
  failed: "critical",
};

function ResultTable({ results }: { results: BulkResult[] }) {
  const { i18n } = shopify;
  const details = (result: BulkResult): string => {
    if (result.outcome === "booked" || result.outcome === "already_booked") {
      return result.awb ? i18n.translate("results.awb", { courier: result.courierName ?? "", awb: result.awb }) : "";
    }
    return result.reason ?? "";
  };
  return (
    <s-table>
      <s-table-header-row>
        <s-table-header listSlot="primary">{i18n.translate("results.order")}</s-table-header>
        <s-table-header>{i18n.translate("results.result")}</s-table-header>
        <s-table-header>{i18n.translate("results.details")}</s-table-header>
      </s-table-header-row>
      <s-table-body>
        {results.map((result) => (
          <s-table-row key={result.orderId}>
            <s-table-cell>{result.orderName}</s-table-cell>
            <s-table-cell>
              <s-badge tone={OUTCOME_TONE[result.outcome]}>{i18n.translate(`outcome.${result.outcome}`)}</s-badge>
            </s-table-cell>
            <s-table-cell>{details(result)}</s-table-cell>
          </s-table-row>
        ))}
      </s-table-body>
    </s-table>
  );
}
