import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { RATE_BADGE_TONES } from "../../extensions/shared/badge-tones";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
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
import { bookOrder, quoteOrder } from "~/orders/book-order.server";
import { listShipmentsForOrder } from "~/shipments/shipments.server";
import { readOrderShipping } from "~/orders/order-shipping.server";
import { changeParcels, type ParcelChange } from "~/orders/parcel-changes.server";
import { listLocations, type ShopLocation } from "~/shopify/admin-orders.server";
import type { Shipment } from "@prisma/client";
import { shipmentForScreen } from "~/shipments/shipment-view";
import { TrackingTimeline } from "~/components/TrackingTimeline";
import { ReturnHistory, ShipmentHistory } from "~/components/ShipmentHistory";
import { getShopOverview } from "~/shopify/shop.server";
import { listShipmentHistory } from "~/shipments/history.server";
import { CourierError } from "~/shipping/client.server";
import { listTrackingEvents, syncShipmentNow } from "~/tracking/sync.server";
import { DECISION } from "~/orders/readiness";
import { orderGidOf, overrideErrorsInWords, parseOverrides } from "~/booking/overrides";
import { ProblemsBanner } from "~/components/ProblemsBanner";
import { formatKg, formatPaise, formatRupees } from "~/components/formatting";
import { adminStrings, fill, formLanguage, plural, sayStored, shipmentStatusName, type AdminStrings } from "~/locales/admin-language";
import { bookOutcomeInWords } from "~/booking/book-outcome";
import { useAdminLanguage, useAdminStrings } from "~/components/AdminLanguage";
import { zoneInWords } from "~/components/zone-words";
import { DELIVERY_STAGES, deliveryStageOf } from "~/shipments/delivery-stage";
import { outcomeInWords } from "~/shipments/outcome-words";
import { isLogisticId } from "~/shipping/contract";
import { isSafeTrackingUrl } from "~/shipping/tracking-url";
import { labelLink } from "~/documents/documents.server";
import { listOrderReturns } from "~/returns/order-returns.server";
import { bookPickupByMerchant } from "~/returns/returns-view.server";
import { authenticate } from "~/shopify.server";
import { shopAdmin } from "~/shopify/admin-graphql.server";
import { pickupWarehouseChoices, type WarehouseSummary } from "~/settings/settings-form.server";
import { whenShopifyAnswers } from "~/shopify/busy.server";
import { isReturnState, RETURN_STATE_TONES } from "~/returns/return-lifecycle";
import { returnStateName } from "~/returns/return-words";
import { CodCard } from "~/components/CodCard";
import { codOrderView } from "~/cod/cod-order-view.server";
import { askToConfirm, carryOnConfirmation, withdrawConfirmation } from "~/cod/confirmation.server";
import { recordWaitingForShopper } from "~/orders/order-records.server";

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

/** A booked parcel as the page shows it: its booking, its tracking, its history and its label. */
async function bookedParcel(shop: string, shipment: Shipment) {
  const [tracking, history] = await Promise.all([shipment.awb ? listTrackingEvents(shop, shipment.id) : Promise.resolve([]), listShipmentHistory(shop, shipment.id)]);
  return { booked: shipmentForScreen(shipment), tracking, history, labelUrl: labelLink(shipment) };
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const orderGid = orderGidFrom(params.id);
  const [shipping, shop] = await Promise.all([readOrderShipping(session.shop, orderGid), whenShopifyAnswers(() => getShopOverview(admin))]);
  // Times read in the shop's own zone, as Shopify's admin shows them.
  const timeZone = shop.ianaTimezone;
  // Every parcel booked (or failed, to book again), the ones holding a booking first; the first is the order's own banner.
  const parcels = await Promise.all(shipping.shipments.map((shipment) => bookedParcel(session.shop, shipment)));
  const { booked = null, tracking = [], history = [], labelUrl = null } = parcels[0] ?? {};
  // What the rules decided about this order, and why.
  const decision = shipping.decision && { kind: shipping.decision.kind, reason: shipping.decision.reason, words: shipping.decision.words };
  // The wrong edits by field alone: the page words them in the admin's language.
  const { overrides, invalid: invalidOverrides } = parseOverrides(new URL(request.url).searchParams);
  // The order's returns, apart from its own shipment: their items, state, and reverse rates while a pickup is to book.
  const returns = await whenShopifyAnswers(() => listOrderReturns(session.shop, admin, orderGid));
  const page = { invalidOverrides, booked, tracking, history, labelUrl, parcels, decision, timeZone, returns };
  // Every parcel booked is shown as booked; an order with a parcel still to book (or to book again) is quoted.
  if (shipping.everyParcelBooked) {
    return json({ ...page, outcome: { kind: "booked" as const }, warehouses: [] as WarehouseSummary[], locations: [] as ShopLocation[], cod: await codOrderView(session.shop, orderGid, { mobile: null, booked: true }) });
  }
  // The warehouses to pick up from and the locations to move items to, by name, while the order is quoted.
  const [quoted, warehouses, locations] = await Promise.all([whenShopifyAnswers(() => quoteOrder({ shop: session.shop, admin }, { orderGid, overrides })), pickupWarehouseChoices(session.shop), whenShopifyAnswers(() => listLocations(admin))]);
  if (quoted.kind === "not_found") throw new Response("No such order", { status: 404 });
  // Booked meanwhile: the bookings, never the stored rows, go to the page (they hold the shopper's details as sent).
  const outcome = quoted.kind === "already_booked" ? { kind: "booked" as const } : quoted;
  // The order's cash on delivery: its risk, its shopper's confirmation with a WhatsApp message to the mobile just read.
  const mobile = quoted.kind === "quoted" || quoted.kind === "problems" || quoted.kind === "unavailable" ? (quoted.shipment?.fields.mobile ?? null) : null;
  const cod = await codOrderView(session.shop, orderGid, { mobile, booked: quoted.kind === "already_booked" });
  return json({ ...page, outcome, warehouses, locations: locations.length > 1 ? locations : [], cod });
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { admin: shopify, session } = await authenticate.admin(request);
  const admin = shopAdmin(session.shop, shopify);
  const orderGid = orderGidFrom(params.id);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "sync") return syncTracking(session.shop, admin, orderGid);
  if (intent === "book-return") return bookReturnPickup(session.shop, admin, form);
  if (intent === "move" || intent === "split" || intent === "merge") return changeParcelsOnPage(session.shop, admin, orderGid, form);
  if (intent === "cod-ask" || intent === "cod-withdraw") return codOnPage(session.shop, admin, orderGid, intent);
  const courierId = Number(form.get("courierId"));
  if (!isLogisticId(courierId)) return json({ kind: "refused" as const, ...said({ id: "chooseCourier" }), fieldErrors: [] }, { status: 422 });
  const { overrides, errors } = parseOverrides(form, formLanguage(form));
  if (Object.keys(errors).length > 0) return json({ kind: "refused" as const, message: Object.values(errors).join(" "), fieldErrors: [] }, { status: 422 });
  // One parcel's Book button names it; the order's books every parcel still to book.
  const parcel = textField(form, "fulfillmentOrderId");
  const outcome = await whenShopifyAnswers(() => bookOrder({ shop: session.shop, admin }, { orderGid, courierId, overrides, ...(parcel ? { fulfillmentOrderId: parcel } : {}) }));
  if (outcome.kind === "booked" || outcome.kind === "already_booked") return json({ kind: outcome.kind, shipment: shipmentForScreen(outcome.shipment), shipments: outcome.shipments.map(shipmentForScreen) });
  // Never the stored rows of the parcels booked beside a refusal: the page reloads them.
  const { booked: _booked, ...refused } = outcome;
  return json(refused, { status: 422 });
};

/** A form field as text, at most a Shopify id's length; null when absent or empty. */
const textField = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, 100) : null;
};

/** Moves an item, splits one off into a parcel of its own, or merges parcels, in Shopify, before booking. */
async function changeParcelsOnPage(shop: string, admin: ReturnType<typeof shopAdmin>, orderGid: string, form: FormData) {
  const intent = form.get("intent");
  const fulfillmentOrderId = textField(form, "fulfillmentOrderId") ?? "";
  const lineId = textField(form, "lineId") ?? "";
  const quantity = Number(form.get("quantity") ?? 0);
  if (intent !== "merge" && (!Number.isInteger(quantity) || quantity < 1 || quantity > 10_000 || !lineId)) return json({ kind: "refused" as const, ...said({ id: "chooseItem" }), fieldErrors: [] }, { status: 422 });
  const change: ParcelChange =
    intent === "move"
      ? { kind: "move", fulfillmentOrderId, lineId, quantity, locationId: textField(form, "locationId") ?? "" }
      : intent === "split"
        ? { kind: "split", fulfillmentOrderId, lineId, quantity }
        : { kind: "merge", fulfillmentOrderIds: form.getAll("fulfillmentOrderIds").map(String).slice(0, 20) };
  if (change.kind === "move" && !change.locationId) return json({ kind: "refused" as const, ...said({ id: "chooseLocation" }), fieldErrors: [] }, { status: 422 });
  const changed = await whenShopifyAnswers(() => changeParcels(shop, admin, orderGid, change));
  if (changed.ok) return json({ kind: "parcels_changed" as const, ...said({ id: change.kind === "move" ? "moved" : change.kind === "split" ? "split" : "merged" }) });
  if ("reason" in changed) return json({ kind: "refused" as const, ...said({ id: changed.reason === "not_a_parcel" ? "notAParcel" : "nothingToMerge" }), fieldErrors: [] }, { status: 409 });
  return json({ kind: "refused" as const, ...said({ id: "parcelChangeRefused", values: { reason: changed.message } }), fieldErrors: [] }, { status: 422 });
}

/** "Ask the shopper to confirm" and "Stop waiting and ship": the shopper's confirmation, from this page. */
async function codOnPage(shop: string, admin: ReturnType<typeof shopAdmin>, orderGid: string, intent: "cod-ask" | "cod-withdraw") {
  const context = { shop, admin, now: () => new Date() };
  const merchant = { kind: "merchant" as const, name: "Ship order page" };
  if (intent === "cod-withdraw") {
    const withdrawn = await withdrawConfirmation(shop, orderGid, merchant, new Date());
    if (!withdrawn) return json({ kind: "refused" as const, ...said({ id: "codNotWaiting" }), fieldErrors: [] }, { status: 409 });
    // The hold goes now when Shopify answers (else the job releases it): the merchant is about to ship.
    await whenShopifyAnswers(() => carryOnConfirmation(context, orderGid));
    return json({ kind: "cod_changed" as const, ...said({ id: "codWithdrawn" }) });
  }
  const asked = await whenShopifyAnswers(() => askToConfirm(context, orderGid, merchant));
  if (asked.kind === "asked") {
    await recordWaitingForShopper(shop, orderGid, { key: "decisions.askedByMerchant" }, new Date());
    return json({ kind: "cod_changed" as const, ...said({ id: "codAsked" }) });
  }
  if (asked.kind === "already_asked") return json({ kind: "refused" as const, ...said({ id: "codAlreadyAsked" }), fieldErrors: [] }, { status: 409 });
  return json({ kind: "refused" as const, ...said({ id: "codNotAsked", values: { why: adminStrings("en").cod.askOutcomes[asked.kind === "booked" || asked.kind === "cancelled" ? "not_checked" : asked.kind] } }), fieldErrors: [] }, { status: 409 });
}

/** "Book pickup" on one of the order's returns: the Returns view's booking, through the same exactly-once claim. */
async function bookReturnPickup(shop: string, admin: ReturnType<typeof shopAdmin>, form: FormData) {
  const courierId = Number(form.get("courierId"));
  if (!isLogisticId(courierId)) return json({ kind: "refused" as const, ...said({ id: "chooseReturnCourier" }), fieldErrors: [] }, { status: 422 });
  const result = await whenShopifyAnswers(() => bookPickupByMerchant(shop, admin, String(form.get("returnGid") ?? "").slice(0, 100), courierId, formLanguage(form)));
  if (result.ok) return json({ kind: "return_booked" as const, message: result.message });
  return json({ kind: "refused" as const, message: result.message, fieldErrors: [] }, { status: result.status });
}

/** "Sync now": reads the courier's tracking for each of this order's parcels at once and tells Shopify what is new. */
async function syncTracking(shop: string, admin: ReturnType<typeof shopAdmin>, orderGid: string) {
  const parcels = (await listShipmentsForOrder(shop, orderGid)).filter((shipment) => shipment.awb);
  if (parcels.length === 0) return json({ kind: "refused" as const, ...said({ id: "nothingToTrack" }), fieldErrors: [] }, { status: 409 });
  try {
    for (const shipment of parcels) await whenShopifyAnswers(() => syncShipmentNow(shop, shipment.id, { admin, now: () => new Date(), actor: { kind: "merchant", name: "Ship order page" } }));
  } catch (error) {
    if (!(error instanceof CourierError)) throw error;
    const status = error.retryable ? 503 : 422;
    return json({ kind: "unavailable" as const, ...said({ id: "trackingUnreadable", values: { reason: error.message } }) }, { status });
  }
  return json({ kind: "synced" as const, ...said({ id: "trackingUpToDate" }) });
}

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


type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type BookedParcelData = LoaderData["parcels"][number];
type Quoted = Extract<LoaderData["outcome"], { kind: "quoted" }>;
type PendingParcelData = Quoted["parcels"][number];
type RateRow = Quoted["rates"][number];
type Edit = Record<string, string>;

/** The edit fields of the parcel in `number`: parcel 1's are the fields' own names, the others' `field.N`. */
const editKey = (field: string, number: number) => (number === 1 ? field : `${field}.${number}`);
type EditField = "length" | "breadth" | "height" | "weightKg" | "warehouseId" | "ewaybillNo";

export default function ShipOrder() {
  const { outcome, invalidOverrides, booked, decision, timeZone, returns, warehouses, parcels, locations, cod } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const shopify = useAppBridge();
  const strings = useAdminStrings();
  const t = strings.ship;
  const language = useAdminLanguage();
  const overrideErrors: Record<string, string | undefined> = overrideErrorsInWords(language, invalidOverrides);
  const bookedNow = result && "shipments" in result ? result.shipments : null;
  const bookedToast = t.parcels.bookedToast;
  const awbsBooked = bookedNow?.flatMap((shipment) => (shipment.awb ? [shipment.awb] : [])).join(", ") ?? "";
  const oneCourier = bookedNow?.length === 1 ? bookedNow[0]!.courierName : null;
  useEffect(() => {
    if (!awbsBooked || result?.kind !== "booked") return;
    shopify.toast.show(oneCourier ? fill(t.banner.bookedToast, { courier: oneCourier, awb: awbsBooked }) : plural(language, bookedToast, awbsBooked.split(", ").length, { awbs: awbsBooked }));
  }, [awbsBooked, oneCourier, result?.kind, bookedToast, language, shopify, t.banner.bookedToast]);
  const [searchParams] = useSearchParams();
  const shipment = "shipment" in outcome ? outcome.shipment : null;
  const fields = shipment?.fields;
  const pending: PendingParcelData[] = outcome.kind === "quoted" ? outcome.parcels : [];
  const [edit, setEdit] = useState<Edit>(() => {
    const start: Edit = {
      paymentMode: searchParams.get("paymentMode") ?? fields?.payment_mode ?? "cod",
      // The warehouse the order is quoted from: its own when the order names none (the account's primary).
      warehouseId: searchParams.get("warehouseId") ?? String(fields?.warehouse_id ?? ("warehouse" in outcome && outcome.warehouse ? outcome.warehouse.id : "")),
    };
    const shown = pending.length > 0 ? pending.map((each) => each.parcel) : shipment ? [{ ...shipment, position: 1 }] : [];
    for (const parcel of shown) {
      const of = (field: EditField, mapped: string) => (start[editKey(field, parcel.position)] = searchParams.get(editKey(field, parcel.position)) ?? mapped);
      of("length", String(parcel.fields.package_length));
      of("breadth", String(parcel.fields.package_breadth));
      of("height", String(parcel.fields.package_height));
      of("weightKg", String(parcel.fields.package_weight));
      of("warehouseId", String(parcel.fields.warehouse_id ?? ("warehouse" in outcome && outcome.warehouse ? outcome.warehouse.id : "")));
      of("ewaybillNo", "");
    }
    return start;
  });
  const setField = (key: string) => (value: string) => setEdit({ ...edit, [key]: value });
  const submitting = navigation.state === "submitting" ? navigation.formData : undefined;
  const bookingCourier = submitting && !submitting.get("intent") ? `${submitting.get("fulfillmentOrderId") ?? ""}:${submitting.get("courierId")}` : null;
  const bookingReturn = submitting?.get("intent") === "book-return" ? `${submitting.get("returnGid")}:${submitting.get("courierId")}` : null;
  const current = result && "shipment" in result && result.shipment && "status" in result.shipment ? result.shipment : booked;
  const title = fields ? fill(t.page.title, { orderId: fields.order_id }) : current?.orderName ? fill(t.page.titleOrder, { name: current.orderName }) : strings.pages.ship;
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
  // An order of several parcels shows each; one in a single parcel reads as it always has. A failed booking is no
  // parcel of its own: its parcel is still to book.
  const standingParcels = parcels.filter((parcel) => parcel.booked.status !== "failed").length;
  const severalParcels = standingParcels + pending.length > 1;
  const hidden = Object.entries(Object.fromEntries(searchParams));

  return (
    <Page title={title} backAction={{ content: t.page.back, url: "/app/orders" }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {severalParcels ? (
              <Banner tone="info">{fill(t.parcels.explained, { count: standingParcels + pending.length })}</Banner>
            ) : null}
            {parcels.map((parcel, index) => (
              <BookedParcel key={parcel.booked.id} parcel={index === 0 && !severalParcels && current ? { ...parcel, booked: { ...parcel.booked, ...current } } : parcel} heading={severalParcels} timeZone={timeZone} syncing={submitting?.get("intent") === "sync"} />
            ))}
            {decision && (decision.kind === DECISION.BOOKED || !current || current.status === "failed" || pending.length > 0) ? (
              <Banner tone={decision.kind === DECISION.BOOKED ? "info" : "warning"} title={decision.kind === DECISION.BOOKED ? t.decision.booked : decision.kind === DECISION.HELD ? t.decision.held : decision.kind === DECISION.CONFIRMING ? t.decision.confirming : t.decision.notBooked}>
                {sayStored(language, decision.words, decision.reason)}
              </Banner>
            ) : null}
            {result?.kind === "synced" || result?.kind === "return_booked" || result?.kind === "parcels_changed" || result?.kind === "cod_changed" ? <Banner tone="success">{resultMessage}</Banner> : null}
            {result && (result.kind === "refused" || result.kind === "unavailable") ? (
              <Banner tone="critical" title={t.outcome.notBooked}>
                {resultMessage}
              </Banner>
            ) : null}
            <CodCard {...cod} timeZone={timeZone} busy={typeof submitting?.get("intent") === "string" ? String(submitting.get("intent")) : null} />
            {outcome.kind === "problems" ? <ProblemsBanner problems={outcome.problems} /> : null}
            {result?.kind === "problems" ? <ProblemsBanner problems={result.problems} /> : null}
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
                    {formatKg(fields.package_weight, language)} ({sourceInWords(t, shipment.weightSource)})
                    {severalParcels ? "" : ` · ${fill(t.shipment.size, { length: fields.package_length, breadth: fields.package_breadth, height: fields.package_height })} (${sourceInWords(t, shipment.packageSource)})`}
                    {!severalParcels && shipment.locationName ? ` · ${fill(t.shipment.from, { location: shipment.locationName })}` : ""}
                  </Text>
                  {severalParcels ? null : <ItemList products={fields.products} />}
                  <Form method="get">
                    <FormLayout>
                      {severalParcels ? null : (
                        <ParcelEditFields number={1} edit={edit} setField={setField} errors={overrideErrors} warehouses={warehouses} />
                      )}
                      <InlineGrid columns={3} gap="200">
                        <Select
                          label={t.edit.paymentMode}
                          name="paymentMode"
                          options={[
                            { label: t.shipment.cod, value: "cod" },
                            { label: t.shipment.prepaid, value: "prepaid" },
                          ]}
                          value={edit.paymentMode}
                          onChange={setField("paymentMode")}
                          error={overrideErrors.paymentMode}
                        />
                      </InlineGrid>
                      {severalParcels
                        ? pending.map(({ parcel }) => (
                            <BlockStack key={parcel.fulfillmentOrderId + parcel.position} gap="200">
                              <Text as="h3" variant="headingSm">
                                {fill(t.parcels.edit, { number: parcel.position })}
                              </Text>
                              <ParcelEditFields number={parcel.position} edit={edit} setField={setField} errors={overrideErrors} warehouses={warehouses} />
                            </BlockStack>
                          ))
                        : null}
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

            {severalParcels
              ? pending.map((quoted) => <PendingParcel key={quoted.parcel.fulfillmentOrderId + quoted.parcel.position} quoted={quoted} pending={pending} locations={locations} hidden={hidden} booking={bookingCourier} />)
              : null}

            {outcome.kind === "quoted" ? (
              <Card padding="0">
                {severalParcels ? (
                  <Box padding="400">
                    <BlockStack gap="100">
                      <Text as="h2" variant="headingMd">
                        {t.parcels.bookAll}
                      </Text>
                      <Text as="p" tone="subdued">
                        {t.parcels.bookAllExplained}
                      </Text>
                    </BlockStack>
                  </Box>
                ) : null}
                {outcome.rates.length === 0 ? (
                  <BlockStack gap="200">
                    <Banner tone="warning" title={t.rates.noRoute}>
                      {fill(t.rates.noRouteText, { city: outcome.warehouse.city, pincode: outcome.warehouse.pincode, destination: String(fields?.pincode ?? "") })}
                    </Banner>
                  </BlockStack>
                ) : (
                  <RatesTable rates={outcome.rates} hidden={hidden} fulfillmentOrderId={null} booking={bookingCourier} disabled={Boolean(current && current.status !== "failed" && !severalParcels)} />
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

/** A parcel's items, one line each. */
function ItemList({ products }: { products: { product_name: string; sku?: string; quantity: number }[] }) {
  const t = useAdminStrings().ship;
  return (
    <List>
      {products.map((product, index) => (
        <List.Item key={`${product.sku ?? ""}-${index}`}>
          {product.product_name}
          {product.sku ? ` · ${fill(t.shipment.sku, { sku: product.sku })}` : ""} · × {product.quantity}
        </List.Item>
      ))}
    </List>
  );
}

/** One parcel's box, weight, pickup warehouse and e-waybill: parcel 1's under the fields' own names, the others' `field.N`. */
function ParcelEditFields({ number, edit, setField, errors, warehouses }: { number: number; edit: Edit; setField: (key: string) => (value: string) => void; errors: Record<string, string | undefined>; warehouses: LoaderData["warehouses"] }) {
  const t = useAdminStrings().ship;
  const key = (field: EditField) => editKey(field, number);
  const text = (field: EditField, label: string, helpText?: string) => (
    <TextField label={label} name={key(field)} value={edit[key(field)] ?? ""} onChange={setField(key(field))} error={errors[key(field)]} helpText={helpText} autoComplete="off" />
  );
  return (
    <BlockStack gap="200">
      <InlineGrid columns={4} gap="200">
        {text("length", t.edit.length)}
        {text("breadth", t.edit.breadth)}
        {text("height", t.edit.height)}
        {text("weightKg", t.edit.weight)}
      </InlineGrid>
      <InlineGrid columns={2} gap="200">
        {warehouses.length > 0 ? (
          <Select label={t.edit.warehouse} name={key("warehouseId")} options={warehouseOptions(t, warehouses, edit[key("warehouseId")] ?? "")} value={edit[key("warehouseId")] ?? ""} onChange={setField(key("warehouseId"))} error={errors[key("warehouseId")]} />
        ) : (
          text("warehouseId", t.edit.warehouseId)
        )}
        {text("ewaybillNo", t.edit.ewaybill, t.edit.ewaybillHelp)}
      </InlineGrid>
    </BlockStack>
  );
}

/** A booked parcel: where it stands, its tracking and its history; headed by its name when the order has several. */
function BookedParcel({ parcel, heading, timeZone, syncing }: { parcel: BookedParcelData; heading: boolean; timeZone: string; syncing: boolean }) {
  const strings = useAdminStrings();
  const t = strings.ship;
  const language = useAdminLanguage();
  const { booked, tracking, history, labelUrl } = parcel;
  // The banner says where the parcel is once the courier has moved it: a parcel coming back is never a green "Fulfilled".
  const stage = deliveryStageOf(booked);
  const movedByCourier = !["booking", "awaiting_pickup", "not_booked"].includes(stage);
  // Where the courier has it, attempts counted; a pickup that failed or a misroute by the problem it is.
  const problemOfStage = stage === "delivery_problem" && (booked.outcome === "awaiting_pickup" || booked.outcome === "in_transit");
  const bannerLabel = !movedByCourier ? (shipmentStatusName(strings, booked.status) ?? booked.status) : problemOfStage || booked.status === "cancelled" ? strings.common.deliveryStages[stage] : outcomeInWords(booked, language);
  const bannerTone = movedByCourier ? (DELIVERY_STAGES[stage].tone === "attention" ? "warning" : DELIVERY_STAGES[stage].tone) : booked.status === "fulfilled" ? "success" : booked.status === "failed" ? "critical" : "warning";
  const banner = (
    <Banner tone={bannerTone} title={booked.awb ? fill(t.banner.titleWithAwb, { label: bannerLabel, awb: booked.awb, courier: String(booked.courierName) }) : bannerLabel}>
      {booked.lastError ? <p>{sayStored(language, booked.lastErrorWords, booked.lastError)}</p> : null}
      {booked.trackingUrl && isSafeTrackingUrl(booked.trackingUrl) ? (
        <Link url={booked.trackingUrl} target="_blank">
          {t.banner.trackingPage}
        </Link>
      ) : null}
      {labelUrl && booked.awb && booked.status !== "cancelled" ? (
        <p>
          <Link url={labelUrl} target="_blank">
            {t.banner.printLabel}
          </Link>
        </p>
      ) : null}
    </Banner>
  );
  const body = (
    <>
      {booked.status !== "failed" ? (
        <Card>
          <BlockStack gap="200">
            <Text as="h2" variant="headingMd">
              {t.shipment.heading}
            </Text>
            <Text as="p">
              {booked.courierName} · {booked.zone ? `${zoneInWords(booked.zone, t)} · ` : ""}
              {booked.totalChargesPaise !== null ? fill(t.shipment.charges, { amount: formatPaise(booked.totalChargesPaise) }) : ""}
              {booked.edd ? ` · ${fill(t.shipment.days, { days: booked.edd })}` : ""} · {booked.paymentMode === "cod" ? t.shipment.cod : t.shipment.prepaid}
            </Text>
            {heading && booked.items.length > 0 ? (
              <List>
                {booked.items.map((item, index) => (
                  <List.Item key={`${item}-${index}`}>{item}</List.Item>
                ))}
              </List>
            ) : null}
          </BlockStack>
        </Card>
      ) : null}
      {booked.awb && booked.status !== "failed" ? <TrackingTimeline progress={booked} entries={tracking} timeZone={timeZone} syncing={syncing} /> : null}
      {history.length > 0 ? <ShipmentHistory entries={history} timeZone={timeZone} /> : null}
    </>
  );
  if (!heading) {
    return (
      <>
        {banner}
        {body}
      </>
    );
  }
  return (
    <BlockStack gap="200">
      <Text as="h2" variant="headingLg">
        {fill(t.parcels.bookedHeading, { name: booked.name })}
        {booked.locationName ? ` · ${fill(t.parcels.from, { location: booked.locationName })}` : ""}
      </Text>
      {banner}
      {body}
    </BlockStack>
  );
}

/** A parcel still to book, of an order of several: its items (each movable or splittable in Shopify), and its own rates. */
function PendingParcel({ quoted, pending, locations, hidden, booking }: { quoted: PendingParcelData; pending: PendingParcelData[]; locations: LoaderData["locations"]; hidden: [string, string][]; booking: string | null }) {
  const strings = useAdminStrings();
  const t = strings.ship;
  const language = useAdminLanguage();
  const { parcel, rates } = quoted;
  const fields = parcel.fields;
  // Parcels still to book from the same location can become one again.
  const sameLocation = pending.filter((other) => other.parcel.locationGid === parcel.locationGid && other.parcel.fulfillmentOrderId !== parcel.fulfillmentOrderId && !other.parcel.splitOff);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {fill(t.parcels.heading, { number: parcel.position, of: parcel.count })}
          {parcel.locationName ? ` · ${fill(t.parcels.from, { location: parcel.locationName })}` : ""}
        </Text>
        <Text as="p" tone="subdued">
          {plural(language, t.shipment.items, fields.products.length)} · {fill(fields.payment_mode === "cod" ? t.parcels.collect : t.parcels.declared, { amount: formatRupees(fields.total_amount) })} · {formatKg(fields.package_weight, language)} ·{" "}
          {fill(t.shipment.size, { length: fields.package_length, breadth: fields.package_breadth, height: fields.package_height })}
        </Text>
        {parcel.splitOff ? <Banner tone="info">{t.parcels.splitOff}</Banner> : null}
        <List>
          {fields.products.map((product, index) => {
            const line = parcel.lines[index];
            return (
              <List.Item key={`${line?.id ?? index}`}>
                <InlineStack gap="200" blockAlign="center">
                  <Text as="span">
                    {product.product_name}
                    {product.sku ? ` · ${fill(t.shipment.sku, { sku: product.sku })}` : ""} · × {product.quantity}
                  </Text>
                  {line && !parcel.splitOff ? <ItemControls fulfillmentOrderId={parcel.fulfillmentOrderId} line={line} item={product.product_name} locations={locations.filter((location) => location.id !== parcel.locationGid)} canSplit={fields.products.length > 1 || product.quantity > 1} /> : null}
                </InlineStack>
              </List.Item>
            );
          })}
        </List>
        {sameLocation.length > 0 && parcel.position < sameLocation[0]!.parcel.position ? (
          <Form method="post">
            <input type="hidden" name="intent" value="merge" />
            <input type="hidden" name="locale" value={language} />
            <input type="hidden" name="fulfillmentOrderIds" value={parcel.fulfillmentOrderId} />
            {sameLocation.map((other) => (
              <input key={other.parcel.fulfillmentOrderId} type="hidden" name="fulfillmentOrderIds" value={other.parcel.fulfillmentOrderId} />
            ))}
            <Button submit>{fill(t.parcels.merge, { location: parcel.locationName ?? "" })}</Button>
          </Form>
        ) : null}
        {rates.length > 0 ? (
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {t.parcels.bookThis}
            </Text>
            <RatesTable rates={rates} hidden={hidden} fulfillmentOrderId={parcel.fulfillmentOrderId} number={parcel.position} booking={booking} disabled={parcel.splitOff} />
          </BlockStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}

/** Move an item to another location, or put it into a parcel of its own, in Shopify. */
function ItemControls({ fulfillmentOrderId, line, item, locations, canSplit }: { fulfillmentOrderId: string; line: { id: string; quantity: number }; item: string; locations: LoaderData["locations"]; canSplit: boolean }) {
  const t = useAdminStrings().ship.parcels;
  const language = useAdminLanguage();
  const [to, setTo] = useState(locations[0]?.id ?? "");
  const common = (
    <>
      <input type="hidden" name="locale" value={language} />
      <input type="hidden" name="fulfillmentOrderId" value={fulfillmentOrderId} />
      <input type="hidden" name="lineId" value={line.id} />
      <input type="hidden" name="quantity" value={line.quantity} />
    </>
  );
  return (
    <InlineStack gap="100" blockAlign="center">
      {locations.length > 0 ? (
        <Form method="post">
          <input type="hidden" name="intent" value="move" />
          {common}
          <InlineStack gap="100" blockAlign="center">
            <Select label={t.moveTo} labelInline name="locationId" options={locations.map((location) => ({ label: location.name, value: location.id }))} value={to} onChange={setTo} />
            <Button submit size="slim" accessibilityLabel={fill(t.moveLabel, { item })}>
              {t.move}
            </Button>
          </InlineStack>
        </Form>
      ) : null}
      {canSplit ? (
        <Form method="post">
          <input type="hidden" name="intent" value="split" />
          {common}
          <Button submit size="slim" accessibilityLabel={fill(t.splitLabel, { item })}>
            {t.split}
          </Button>
        </Form>
      ) : null}
    </InlineStack>
  );
}

type SortKey = "name" | "total_charges" | "eddMaxDays" | "freight_charges";

/** Couriers' rates with a Book button each: for every parcel still to book, or (with a fulfillment order) for one parcel. */
function RatesTable({ rates, hidden, fulfillmentOrderId, number, booking, disabled }: { rates: RateRow[]; hidden: [string, string][]; fulfillmentOrderId: string | null; number?: number; booking: string | null; disabled: boolean }) {
  const t = useAdminStrings().ship;
  const language = useAdminLanguage();
  const headings = t.rates.headings;
  const [sort, setSort] = useState<{ key: SortKey; direction: "ascending" | "descending" }>({ key: "total_charges", direction: "ascending" });
  const sorted = useMemo(() => {
    const ordered = [...rates].sort((a, b) => (a[sort.key] < b[sort.key] ? -1 : a[sort.key] > b[sort.key] ? 1 : 0));
    return sort.direction === "ascending" ? ordered : ordered.reverse();
  }, [rates, sort]);
  const sortKeys: SortKey[] = ["name", "name", "name", "freight_charges", "freight_charges", "total_charges", "name", "eddMaxDays", "name"];
  return (
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
      rows={sorted.map((rate) => [
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
          {hidden.map(([key, value]) => (
            <input key={key} type="hidden" name={key} value={value} />
          ))}
          <input type="hidden" name="courierId" value={rate.id} />
          {fulfillmentOrderId ? <input type="hidden" name="fulfillmentOrderId" value={fulfillmentOrderId} /> : null}
          <input type="hidden" name="locale" value={language} />
          <Button
            submit
            variant={rate.isRecommended ? "primary" : "secondary"}
            disabled={disabled}
            loading={booking === `${fulfillmentOrderId ?? ""}:${rate.id}`}
            accessibilityLabel={number === undefined ? fill(t.rates.bookWith, { courier: rate.name }) : fill(t.parcels.bookThisWith, { number, courier: rate.name })}
          >
            {t.rates.book}
          </Button>
        </Form>,
      ])}
    />
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
          <Badge tone={isReturnState(ret.state) ? RETURN_STATE_TONES[ret.state] : undefined}>{returnStateName(strings, ret.state) ?? ret.state}</Badge>
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
        {ret.history.length > 0 ? <ReturnHistory entries={ret.history} heading={strings.returns.history.heading} /> : null}
      </BlockStack>
    </Card>
  );
}

export { ShopifyBusyBoundary as ErrorBoundary } from "~/components/ShopifyBusyBoundary";
