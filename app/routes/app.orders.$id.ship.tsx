import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { RATE_BADGE_TONES } from "../../extensions/shared/badge-tones";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  List,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useAppBridge } from "@shopify/app-bridge-react";
import { useEffect, useMemo, useState } from "react";
import { bookOrder, quoteOrder } from "~/booking/book-order.server";
import { getShipmentForOrder } from "~/booking/shipments.server";
import { shipmentForScreen } from "~/booking/shipment-view";
import { TrackingTimeline } from "~/components/TrackingTimeline";
import { ShipmentHistory } from "~/components/ShipmentHistory";
import { getShopOverview } from "~/shopify/shop.server";
import { listShipmentHistory } from "~/shipments/history.server";
import { CourierError } from "~/shipping/client.server";
import { listTrackingEvents, syncShipmentNow } from "~/tracking/sync.server";
import { getOrderRecord } from "~/orders/order-records.server";
import { DECISION } from "~/orders/readiness";
import { orderGidOf, overrideErrorsInWords, parseOverrides } from "~/booking/overrides";
import { ProblemsBanner } from "~/components/ProblemsBanner";
import { formatKg, formatPaise, formatRupees } from "~/components/formatting";
import { adminStrings, fill, formLanguage, plural, returnStatusName, sayStored, shipmentStatusName, type AdminStrings } from "~/locales/admin-language";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { zoneInWords } from "~/components/zone-words";
import { DELIVERY_STAGES, deliveryStageOf } from "~/shipments/delivery-stage";
import { isLogisticId } from "~/shipping/contract";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { labelLink } from "~/documents/documents.server";
import { listOrderReturns } from "~/returns/order-returns.server";
import { bookPickupByMerchant } from "~/returns/returns-view.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { pickupWarehouseChoices, type WarehouseSummary } from "~/settings/settings-form.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { RETURN_STATUS_TONES } from "~/components/return-status";

function orderGidFrom(id: string | undefined): string {
  const gid = orderGidOf(id ?? "");
  if (!gid) throw new Response("No such order", { status: 404 });
  return gid;
}

type ShipStrings = AdminStrings["ship"];

/** One of this page's own notices: an id with its values, said in the admin's language by the page. */
type ShipNotice = { id: keyof ShipStrings["notices"]; values?: Record<string, string> };

const noticeInWords = (notices: ShipStrings["notices"], notice: ShipNotice) => fill(notices[notice.id], notice.values ?? {});

/** A notice for the page, with its English words as the answer's `message` for whoever reads the answer bare. */
const said = (notice: ShipNotice) => ({ notice, message: noticeInWords(adminStrings("en").ship.notices, notice) });

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const orderGid = orderGidFrom(params.id);
  const [stored, record, shop] = await Promise.all([getShipmentForOrder(session.shop, orderGid), getOrderRecord(session.shop, orderGid), whenShopifyAnswers(() => getShopOverview(admin))]);
  // Times read in the shop's own zone, as Shopify's admin shows them.
  const timeZone = shop.ianaTimezone;
  const booked = stored ? shipmentForScreen(stored) : null;
  const [tracking, history] = await Promise.all([stored?.awb ? listTrackingEvents(session.shop, stored.id) : Promise.resolve([]), stored ? listShipmentHistory(session.shop, stored.id) : Promise.resolve([])]);
  // What the rules decided about this order, and why.
  const decision = record?.decision && record.decisionReason ? { kind: record.decision, reason: record.decisionReason, words: record.decisionWords } : null;
  // The wrong edits by field alone: the page words them in the admin's language.
  const { overrides, invalid: invalidOverrides } = parseOverrides(new URL(request.url).searchParams);
  // A booked order is shown as booked; only a failed booking is quoted again.
  const labelUrl = stored ? labelLink(stored) : null;
  // The order's returns, apart from its own shipment: their items, state, and reverse rates while a pickup is to book.
  const returns = await whenShopifyAnswers(() => listOrderReturns(session.shop, admin, orderGid));
  if (booked && booked.status !== "failed") return json({ outcome: { kind: "booked" as const }, invalidOverrides, booked, tracking, history, decision, labelUrl, timeZone, returns, warehouses: [] as WarehouseSummary[] });
  // The warehouses to pick up from, by name, while the order is quoted: only an order still to book offers them.
  const [outcome, warehouses] = await Promise.all([whenShopifyAnswers(() => quoteOrder({ shop: session.shop, admin }, { orderGid, overrides })), pickupWarehouseChoices(session.shop)]);
  if (outcome.kind === "not_found") throw new Response("No such order", { status: 404 });
  return json({ outcome, invalidOverrides, booked, tracking, history, decision, labelUrl, timeZone, returns, warehouses });
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const orderGid = orderGidFrom(params.id);
  const form = await request.formData();
  if (form.get("intent") === "sync") return syncTracking(session.shop, admin, orderGid);
  if (form.get("intent") === "book-return") return bookReturnPickup(session.shop, admin, form);
  const courierId = Number(form.get("courierId"));
  if (!isLogisticId(courierId)) return json({ kind: "refused" as const, ...said({ id: "chooseCourier" }), fieldErrors: [] }, { status: 422 });
  const { overrides, errors } = parseOverrides(form, formLanguage(form));
  if (Object.keys(errors).length > 0) return json({ kind: "refused" as const, message: Object.values(errors).join(" "), fieldErrors: [] }, { status: 422 });
  const outcome = await whenShopifyAnswers(() => bookOrder({ shop: session.shop, admin }, { orderGid, courierId, overrides }));
  if (outcome.kind === "booked" || outcome.kind === "already_booked") return json({ kind: outcome.kind, shipment: shipmentForScreen(outcome.shipment) });
  return json(outcome, { status: 422 });
};

/** "Book pickup" on one of the order's returns: the Returns view's booking, through the same exactly-once claim. */
async function bookReturnPickup(shop: string, admin: ReturnType<typeof shopAdmin>, form: FormData) {
  const courierId = Number(form.get("courierId"));
  if (!isLogisticId(courierId)) return json({ kind: "refused" as const, ...said({ id: "chooseReturnCourier" }), fieldErrors: [] }, { status: 422 });
  const result = await whenShopifyAnswers(() => bookPickupByMerchant(shop, admin, String(form.get("returnGid") ?? "").slice(0, 100), courierId, formLanguage(form)));
  if (result.ok) return json({ kind: "return_booked" as const, message: result.message });
  return json({ kind: "refused" as const, message: result.message, fieldErrors: [] }, { status: result.status });
}

/** "Sync now": reads the courier's tracking for this order's shipment at once and tells Shopify what is new. */
async function syncTracking(shop: string, admin: ReturnType<typeof shopAdmin>, orderGid: string) {
  const shipment = await getShipmentForOrder(shop, orderGid);
  if (!shipment?.awb) return json({ kind: "refused" as const, ...said({ id: "nothingToTrack" }), fieldErrors: [] }, { status: 409 });
  try {
    await whenShopifyAnswers(() => syncShipmentNow(shop, shipment.id, { admin, now: () => new Date(), actor: { kind: "merchant", name: "Ship order page" } }));
  } catch (error) {
    if (!(error instanceof CourierError)) throw error;
    const status = error.retryable ? 503 : 422;
    return json({ kind: "unavailable" as const, ...said({ id: "trackingUnreadable", values: { reason: error.message } }) }, { status });
  }
  return json({ kind: "synced" as const, ...said({ id: "trackingUpToDate" }) });
}

type SortKey = "name" | "total_charges" | "eddMaxDays" | "freight_charges";

/** Where a mapped shipment's payment mode, weight or package came from, in words; a package preset by its own name. */
const SOURCE_WORDS: Readonly<Record<string, keyof ShipStrings["shipment"]["sources"]>> = {
  tag: "tag",
  "payment gateway": "paymentGateway",
  "financial status": "financialStatus",
  edited: "edited",
  return: "return",
  "line items": "lineItems",
  "default weight": "defaultWeight",
  "default package": "defaultPackage",
};
const sourceInWords = (t: ShipStrings, source: string) => (Object.hasOwn(SOURCE_WORDS, source) ? t.shipment.sources[SOURCE_WORDS[source]!] : source);

/**
 * The pickup warehouses by name and address, the courier's number after; one the address asks for but the list lacks
 * (typed into the address, or no longer in Settings) stays choosable by its number.
 */
function warehouseOptions(t: ShipStrings, warehouses: readonly WarehouseSummary[], chosen: string) {
  const options = warehouses.map((warehouse) => ({ label: fill(warehouse.description ? t.edit.warehouseNamed : t.edit.warehouseNumbered, { description: warehouse.description ?? "", id: warehouse.id }), value: String(warehouse.id) }));
  if (chosen && !options.some((option) => option.value === chosen)) options.push({ label: fill(t.edit.warehouseNumbered, { id: chosen, description: "" }), value: chosen });
  return options;
}


export default function ShipOrder() {
  const { outcome, invalidOverrides, booked, tracking, history, decision, labelUrl, timeZone, returns, warehouses } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const shopify = useAppBridge();
  const strings = useAdminStrings();
  const t = strings.ship;
  const language = useAdminLanguage();
  const overrideErrors = overrideErrorsInWords(language, invalidOverrides);
  const bookedShipment = result?.kind === "booked" ? result.shipment : null;
  const bookedToast = t.banner.bookedToast;
  useEffect(() => {
    if (bookedShipment?.awb) shopify.toast.show(fill(bookedToast, { courier: String(bookedShipment.courierName), awb: bookedShipment.awb }));
  }, [bookedShipment?.awb, bookedShipment?.courierName, bookedToast, shopify]);
  const [searchParams] = useSearchParams();
  const [sort, setSort] = useState<{ key: SortKey; direction: "ascending" | "descending" }>({ key: "total_charges", direction: "ascending" });
  const shipment = "shipment" in outcome ? outcome.shipment : null;
  const fields = shipment?.fields;
  const [edit, setEdit] = useState(() => ({
    length: searchParams.get("length") ?? String(fields?.package_length ?? ""),
    breadth: searchParams.get("breadth") ?? String(fields?.package_breadth ?? ""),
    height: searchParams.get("height") ?? String(fields?.package_height ?? ""),
    weightKg: searchParams.get("weightKg") ?? String(fields?.package_weight ?? ""),
    paymentMode: searchParams.get("paymentMode") ?? fields?.payment_mode ?? "cod",
    // The warehouse the order is quoted from: its own when the order names none (the account's primary).
    warehouseId: searchParams.get("warehouseId") ?? String(fields?.warehouse_id ?? ("warehouse" in outcome && outcome.warehouse ? outcome.warehouse.id : "")),
    ewaybillNo: searchParams.get("ewaybillNo") ?? "",
  }));
  const rates = useMemo(() => {
    if (outcome.kind !== "quoted") return [];
    const sorted = [...outcome.rates].sort((a, b) => (a[sort.key] < b[sort.key] ? -1 : a[sort.key] > b[sort.key] ? 1 : 0));
    return sort.direction === "ascending" ? sorted : sorted.reverse();
  }, [outcome, sort]);
  const bookingCourier = navigation.state === "submitting" && navigation.formData?.get("intent") !== "book-return" ? navigation.formData?.get("courierId") : null;
  const bookingReturn = navigation.state === "submitting" && navigation.formData?.get("intent") === "book-return" ? `${navigation.formData.get("returnGid")}:${navigation.formData.get("courierId")}` : null;
  const current = result && "shipment" in result && result.shipment && "status" in result.shipment ? result.shipment : booked;
  const title = fields ? fill(t.page.title, { orderId: fields.order_id }) : current?.orderName ? fill(t.page.titleOrder, { name: current.orderName }) : strings.pages.ship;
  // The banner says where the parcel is once the courier has moved it: a parcel coming back is never a green "Fulfilled".
  const stage = current && booked ? deliveryStageOf({ status: current.status, courierStatusCode: booked.courierStatusCode }) : null;
  const movedByCourier = stage !== null && !["booking", "awaiting_pickup", "not_booked"].includes(stage);
  const bannerLabel = current ? (movedByCourier ? strings.common.deliveryStages[stage] : (shipmentStatusName(strings, current.status) ?? current.status)) : "";
  const bannerTone = !current ? undefined : movedByCourier ? (DELIVERY_STAGES[stage].tone === "attention" ? "warning" : DELIVERY_STAGES[stage].tone) : current.status === "fulfilled" ? "success" : current.status === "failed" ? "critical" : "warning";
  const sortKeys: SortKey[] = ["name", "name", "name", "freight_charges", "freight_charges", "total_charges", "name", "eddMaxDays", "name"];
  // This page's own notices and a booking's outcome in the admin's language; a pickup's outcome the server said in it.
  const resultMessage =
    result && "message" in result
      ? "notice" in result
        ? noticeInWords(t.notices, result.notice)
        : result.kind === "refused" || result.kind === "unavailable"
          ? "words" in result && result.words
            ? sayStored(language, result.words, result.message)
            : bookOutcomeInWords(result, { language })
          : result.message
      : null;
  const paymentInWords = (mode: string) => (mode === "cod" ? t.shipment.cod : t.shipment.prepaid);
  const headings = t.rates.headings;

  return (
    <Page title={title} backAction={{ content: t.page.back, url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {current ? (
              <Banner tone={bannerTone} title={current.awb ? fill(t.banner.titleWithAwb, { label: bannerLabel, awb: current.awb, courier: String(current.courierName) }) : bannerLabel}>
                {current.lastError ? <p>{sayStored(language, current.lastErrorWords, current.lastError)}</p> : null}
                {current.trackingUrl && isSafeTrackingUrl(current.trackingUrl) ? (
                  <Link url={current.trackingUrl} target="_blank">
                    {t.banner.trackingPage}
                  </Link>
                ) : null}
                {labelUrl && current.awb && current.status !== "cancelled" ? (
                  <p>
                    <Link url={labelUrl} target="_blank">
                      {t.banner.printLabel}
                    </Link>
                  </p>
                ) : null}
              </Banner>
            ) : null}
            {decision && (decision.kind === DECISION.BOOKED || !current || current.status === "failed") ? (
              <Banner tone={decision.kind === DECISION.BOOKED ? "info" : "warning"} title={decision.kind === DECISION.BOOKED ? t.decision.booked : decision.kind === DECISION.HELD ? t.decision.held : t.decision.notBooked}>
                {sayStored(language, decision.words, decision.reason)}
              </Banner>
            ) : null}
            {result?.kind === "synced" || result?.kind === "return_booked" ? <Banner tone="success">{resultMessage}</Banner> : null}
            {result && (result.kind === "refused" || result.kind === "unavailable") ? (
              <Banner tone="critical" title={t.outcome.notBooked}>
                {resultMessage}
              </Banner>
            ) : null}
            {outcome.kind === "problems" ? <ProblemsBanner problems={outcome.problems} /> : null}
            {result?.kind === "problems" ? <ProblemsBanner problems={result.problems} /> : null}
            {current && current.status !== "failed" ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t.shipment.heading}
                  </Text>
                  <Text as="p">
                    {current.courierName} · {current.zone ? `${zoneInWords(current.zone, t)} · ` : ""}
                    {current.totalChargesPaise !== null ? fill(t.shipment.charges, { amount: formatPaise(current.totalChargesPaise) }) : ""}
                    {current.edd ? ` · ${fill(t.shipment.days, { days: current.edd })}` : ""} · {paymentInWords(current.paymentMode)}
                  </Text>
                </BlockStack>
              </Card>
            ) : null}
            {booked?.awb && booked.status !== "failed" ? (
              <TrackingTimeline progress={booked} entries={tracking} timeZone={timeZone} syncing={navigation.state === "submitting" && navigation.formData?.get("intent") === "sync"} />
            ) : null}
            {history.length > 0 ? <ShipmentHistory entries={history} timeZone={timeZone} /> : null}
            {outcome.kind === "unavailable" ? (
              <Banner tone="critical" title={t.outcome.noRates}>
                {bookOutcomeInWords(outcome, { language })}
              </Banner>
            ) : null}

            {fields && shipment ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t.shipment.heading}
                  </Text>
                  <Text as="p">
                    {fields.name}, {fields.address_line_1}
                    {fields.address_line_2 ? `, ${fields.address_line_2}` : ""}, {fields.city}, {fields.state} {fields.pincode} · {fields.mobile}
                  </Text>
                  <Text as="p" tone="subdued">
                    {plural(language, t.shipment.items, fields.products.length)} · {formatRupees(fields.total_amount)} · {paymentInWords(fields.payment_mode)} ({sourceInWords(t, shipment.paymentModeSource)}) ·{" "}
                    {formatKg(fields.package_weight, language)} ({sourceInWords(t, shipment.weightSource)}) · {fill(t.shipment.size, { length: fields.package_length, breadth: fields.package_breadth, height: fields.package_height })} ({sourceInWords(t, shipment.packageSource)})
                    {shipment.locationName ? ` · ${fill(t.shipment.from, { location: shipment.locationName })}` : ""}
                  </Text>
                  <List>
                    {fields.products.map((product, index) => (
                      <List.Item key={`${product.sku ?? ""}-${index}`}>
                        {product.product_name}
                        {product.sku ? ` · ${fill(t.shipment.sku, { sku: product.sku })}` : ""} · × {product.quantity}
                      </List.Item>
                    ))}
                  </List>
                  <Form method="get">
                    <FormLayout>
                      <InlineGrid columns={4} gap="200">
                        <TextField label={t.edit.length} name="length" value={edit.length} onChange={(value) => setEdit({ ...edit, length: value })} error={overrideErrors.length} autoComplete="off" />
                        <TextField label={t.edit.breadth} name="breadth" value={edit.breadth} onChange={(value) => setEdit({ ...edit, breadth: value })} error={overrideErrors.breadth} autoComplete="off" />
                        <TextField label={t.edit.height} name="height" value={edit.height} onChange={(value) => setEdit({ ...edit, height: value })} error={overrideErrors.height} autoComplete="off" />
                        <TextField label={t.edit.weight} name="weightKg" value={edit.weightKg} onChange={(value) => setEdit({ ...edit, weightKg: value })} error={overrideErrors.weightKg} autoComplete="off" />
                      </InlineGrid>
                      <InlineGrid columns={3} gap="200">
                        <Select
                          label={t.edit.paymentMode}
                          name="paymentMode"
                          options={[
                            { label: t.shipment.cod, value: "cod" },
                            { label: t.shipment.prepaid, value: "prepaid" },
                          ]}
                          value={edit.paymentMode}
                          onChange={(value) => setEdit({ ...edit, paymentMode: value })}
                          error={overrideErrors.paymentMode}
                        />
                        {warehouses.length > 0 ? (
                          <Select
                            label={t.edit.warehouse}
                            name="warehouseId"
                            options={warehouseOptions(t, warehouses, edit.warehouseId)}
                            value={edit.warehouseId}
                            onChange={(value) => setEdit({ ...edit, warehouseId: value })}
                            error={overrideErrors.warehouseId}
                          />
                        ) : (
                          <TextField label={t.edit.warehouseId} name="warehouseId" value={edit.warehouseId} onChange={(value) => setEdit({ ...edit, warehouseId: value })} error={overrideErrors.warehouseId} autoComplete="off" />
                        )}
                        <TextField label={t.edit.ewaybill} name="ewaybillNo" value={edit.ewaybillNo} onChange={(value) => setEdit({ ...edit, ewaybillNo: value })} error={overrideErrors.ewaybillNo} helpText={t.edit.ewaybillHelp} autoComplete="off" />
                      </InlineGrid>
                      <InlineStack align="end">
                        <Button submit loading={navigation.state === "loading"}>
                          {t.edit.update}
                        </Button>
                      </InlineStack>
                    </FormLayout>
                  </Form>
                </BlockStack>
              </Card>
            ) : null}

            {outcome.kind === "quoted" ? (
              <Card padding="0">
                {rates.length === 0 ? (
                  <BlockStack gap="200">
                    <Banner tone="warning" title={t.rates.noRoute}>
                      {fill(t.rates.noRouteText, { city: outcome.warehouse.city, pincode: outcome.warehouse.pincode, destination: String(fields?.pincode ?? "") })}
                    </Banner>
                  </BlockStack>
                ) : (
                  <DataTable
                    columnContentTypes={["text", "text", "text", "numeric", "numeric", "numeric", "text", "text", "text"]}
                    headings={[
                      headings.courier,
                      headings.mode,
                      headings.chargeableWeight,
                      headings.freight,
                      headings.cod,
                      headings.total,
                      headings.zone,
                      headings.deliveryDays,
                      <Text key="book" as="span" visuallyHidden>
                        {headings.book}
                      </Text>,
                    ]}
                    sortable={[true, false, false, true, false, true, false, true, false]}
                    defaultSortDirection="ascending"
                    initialSortColumnIndex={5}
                    onSort={(index, direction) => setSort({ key: sortKeys[index]!, direction: direction === "descending" ? "descending" : "ascending" })}
                    rows={rates.map((rate) => [
                      <InlineStack key="name" gap="100">
                        <Text as="span" fontWeight="semibold">
                          {rate.name}
                        </Text>
                        {rate.isRecommended ? <Badge tone={RATE_BADGE_TONES.recommended}>{t.rates.recommended}</Badge> : null}
                        {rate.isCheapest ? <Badge tone={RATE_BADGE_TONES.cheapest}>{t.rates.cheapest}</Badge> : null}
                        {rate.isFastest ? <Badge tone={RATE_BADGE_TONES.fastest}>{t.rates.fastest}</Badge> : null}
                      </InlineStack>,
                      rate.type,
                      rate.chargeable_weight,
                      formatRupees(rate.freight_charges),
                      formatRupees(rate.cod_charges),
                      formatRupees(rate.total_charges),
                      zoneInWords(rate.zone, t),
                      fill(t.shipment.days, { days: rate.edd }),
                      <Form method="post" key="book">
                        {Object.entries(Object.fromEntries(searchParams)).map(([key, value]) => (
                          <input key={key} type="hidden" name={key} value={value} />
                        ))}
                        <input type="hidden" name="courierId" value={rate.id} />
                        <input type="hidden" name="locale" value={language} />
                        <Button
                          submit
                          variant={rate.isRecommended ? "primary" : "secondary"}
                          disabled={Boolean(current && current.status !== "failed")}
                          loading={bookingCourier === String(rate.id)}
                          accessibilityLabel={fill(t.rates.bookWith, { courier: rate.name })}
                        >
                          {t.rates.book}
                        </Button>
                      </Form>,
                    ])}
                  />
                )}
              </Card>
            ) : null}
            {returns.map((ret) => (
              <ReturnSection key={ret.returnGid} ret={ret} booking={bookingReturn} />
            ))}
            <Text as="p" tone="subdued">
              {t.page.recommendationExplained}
            </Text>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}


/** One return of the order: what comes back, its pickup, or the reverse rates to book it with. */
function ReturnSection({ ret, booking }: { ret: ReturnType<typeof useLoaderData<typeof loader>>["returns"][number]; booking: string | null }) {
  const strings = useAdminStrings();
  const ship = strings.ship;
  const language = useAdminLanguage();
  const t = ship.returns;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {fill(t.heading, { name: ret.returnName })}
          </Text>
          <Badge tone="info">{t.badge}</Badge>
          <Badge tone={RETURN_STATUS_TONES[ret.status]}>{returnStatusName(strings, ret.status) ?? ret.status}</Badge>
          {ret.pickup ? <Badge>{shipmentStatusName(strings, ret.pickup.status) ?? ret.pickup.status}</Badge> : null}
        </InlineStack>
        <List>
          {ret.items.map((item, index) => (
            <List.Item key={`${item.sku ?? ""}-${index}`}>
              {item.title}
              {item.sku ? ` · ${fill(ship.shipment.sku, { sku: item.sku })}` : ""} · × {item.quantity}
            </List.Item>
          ))}
        </List>
        {ret.reasons.length > 0 ? (
          <Text as="p" tone="subdued">
            {fill(t.reason, { reasons: ret.reasons.join(" · ") })}
          </Text>
        ) : null}
        {ret.pickup ? (
          <Text as="p">
            {fill(t.pickup, { courier: ret.pickup.courierName ?? t.theCourier, awb: ret.pickup.awb ?? t.pending })}
            {ret.pickup.trackingUrl ? (
              <>
                {" · "}
                <Link url={ret.pickup.trackingUrl} target="_blank">
                  {t.trackingPage}
                </Link>
              </>
            ) : null}
          </Text>
        ) : null}
        {!ret.pickup && ret.decisionReason ? <Text as="p">{sayStored(language, ret.decisionWords, ret.decisionReason)}</Text> : null}
        {ret.awaitingApproval ? <Banner tone="warning">{t.approveFirst}</Banner> : ret.note ? <Banner tone="warning">{bookOutcomeInWords(ret.note, { problems: "fixes", language })}</Banner> : null}
        {ret.rates.length > 0 ? (
          <DataTable
            columnContentTypes={["text", "numeric", "text", "text"]}
            headings={[
              t.headings.courier,
              t.headings.total,
              t.headings.pickupWithin,
              <Text key="book" as="span" visuallyHidden>
                {t.headings.book}
              </Text>,
            ]}
            rows={ret.rates.map((rate) => [
              <InlineStack key="name" gap="100">
                <Text as="span" fontWeight="semibold">
                  {rate.name}
                </Text>
                {rate.isCheapest ? <Badge tone={RATE_BADGE_TONES.cheapest}>{t.cheapest}</Badge> : null}
              </InlineStack>,
              formatRupees(rate.total_charges),
              fill(ship.shipment.days, { days: rate.edd }),
              <Form method="post" key="book">
                <input type="hidden" name="intent" value="book-return" />
                <input type="hidden" name="locale" value={language} />
                <input type="hidden" name="returnGid" value={ret.returnGid} />
                <input type="hidden" name="courierId" value={rate.id} />
                <Button submit variant={rate.isCheapest ? "primary" : "secondary"} loading={booking === `${ret.returnGid}:${rate.id}`} accessibilityLabel={fill(t.bookWith, { name: ret.returnName, courier: rate.name })}>
                  {t.book}
                </Button>
              </Form>,
            ])}
          />
        ) : null}
      </BlockStack>
    </Card>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
