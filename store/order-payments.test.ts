import { describe, expect, it } from "vitest";
import { validateAdminDocument } from "../graphql/admin-schema";
import { runAdminGraphql, type StoreEvent } from "./admin-api";
import { orderMutations } from "./order-mutations";
import { payInvoice } from "./order-payments";
import { seedShop } from "./seed";

const throttle = { maximumAvailable: 20_000, restoreRate: 1_000 };

/** A shop with one unpaid cash-on-delivery order, and every webhook the store would send. */
function world({ email = "meera@example.in" }: { email?: string | null } = {}) {
  const shop = seedShop();
  const events: StoreEvent[] = [];
  const emit = (event: StoreEvent) => void events.push(event);
  const admin = async <T,>(query: string, variables: Record<string, unknown>) => {
    expect(validateAdminDocument(query)).toEqual([]);
    const answer = await runAdminGraphql(shop, { query, variables }, { throttle, now: () => new Date(), emit });
    expect(answer.body.errors).toBeUndefined();
    return answer.body.data as T;
  };
  const created = orderMutations(shop, { now: () => new Date(), emit: () => undefined }).orderCreate({
    order: {
      email,
      financialStatus: "PENDING",
      tags: ["cod"],
      lineItems: [{ title: "Kasavu saree", sku: "SAR-1", quantity: 1, priceSet: { shopMoney: { amount: "2499.00" } } }],
      transactions: [{ gateway: "Cash on Delivery (COD)", amountSet: { shopMoney: { amount: "0.00" } } }],
      shippingAddress: { firstName: "Meera", lastName: "Nair", address1: "TC 25/1120, Thampanoor", city: "Thiruvananthapuram", provinceCode: "KL", zip: "695001", countryCode: "IN", phone: "9895012345" },
    },
  }) as { order: { id: string } };
  const order = shop.orders.find((candidate) => candidate.id === created.order.id)!;
  return { shop, admin, order, events, emit };
}

type Errors = { userErrors: { message: string; code?: string | null }[] };

const ASSESS = `mutation A($input: OrderRiskAssessmentCreateInput!) { orderRiskAssessmentCreate(orderRiskAssessmentInput: $input) { orderRiskAssessment { riskLevel facts { description sentiment } } userErrors { field message code } } }`;
const RISK = `query R($id: ID!) { order(id: $id) { risk { recommendation assessments { riskLevel provider { title } facts { description } } } } }`;
const INVOICE = `mutation I($id: ID!, $email: EmailInput) { orderInvoiceSend(id: $id, email: $email) { order { id } userErrors { field message code } } }`;
const MARK_PAID = `mutation P($input: OrderMarkAsPaidInput!) { orderMarkAsPaid(input: $input) { order { displayFinancialStatus } userErrors { field message } } }`;
const UPDATE = `mutation U($input: OrderInput!) { orderUpdate(input: $input) { order { shippingAddress { address1 zip province phone } } userErrors { field message } } }`;

describe("the local store's order risk and payments, as Shopify's schema defines them", () => {
  it("takes an app's risk assessment of at most 20 facts of at most 256 characters each, and none once the order is fulfilled", async () => {
    const { admin, order } = world();
    const fact = (description: string) => ({ description, sentiment: "NEGATIVE" });
    const created = await admin<{ orderRiskAssessmentCreate: Errors & { orderRiskAssessment: { riskLevel: string; facts: { description: string }[] } } }>(ASSESS, {
      input: { orderId: order.id, riskLevel: "MEDIUM", facts: [fact("x".repeat(300))] },
    });
    expect(created.orderRiskAssessmentCreate.userErrors).toEqual([]);
    expect(created.orderRiskAssessmentCreate.orderRiskAssessment.facts[0]!.description).toHaveLength(256);
    const tooMany = await admin<{ orderRiskAssessmentCreate: Errors }>(ASSESS, { input: { orderId: order.id, riskLevel: "HIGH", facts: Array.from({ length: 21 }, (_, index) => fact(`Fact ${index}`)) } });
    expect(tooMany.orderRiskAssessmentCreate.userErrors).toEqual([expect.objectContaining({ code: "TOO_MANY_FACTS" })]);
    const read = await admin<{ order: { risk: { assessments: { riskLevel: string }[] } } }>(RISK, { id: order.id });
    expect(read.order.risk.assessments.map((assessment) => assessment.riskLevel)).toEqual(["MEDIUM"]);

    // Shipped in full: nothing remains on its fulfillment orders.
    for (const fo of order.fulfillmentOrders) {
      fo.status = "CLOSED";
      for (const line of fo.lines) line.remainingQuantity = 0;
    }
    const late = await admin<{ orderRiskAssessmentCreate: Errors }>(ASSESS, { input: { orderId: order.id, riskLevel: "LOW", facts: [] } });
    expect(late.orderRiskAssessmentCreate.userErrors).toEqual([expect.objectContaining({ code: "ORDER_ALREADY_FULFILLED" })]);
  });

  it("records an invoice e-mailed for what is outstanding; paying it makes the order paid and sends orders/paid, once", async () => {
    const { shop, admin, order, events, emit } = world();
    const sent = await admin<{ orderInvoiceSend: Errors }>(INVOICE, { id: order.id, email: { customMessage: "Pay for #1 here" } });
    expect(sent.orderInvoiceSend.userErrors).toEqual([]);
    expect(order.invoices).toEqual([expect.objectContaining({ to: "meera@example.in", customMessage: "Pay for #1 here", paidAt: null })]);
    const paid = payInvoice(shop, order.invoices![0]!.token, { now: () => new Date(), emit });
    expect(paid?.displayFinancialStatus).toBe("PAID");
    expect(events.map((event) => event.topic)).toEqual(["orders/paid"]);
    expect(payInvoice(shop, order.invoices![0]!.token, { now: () => new Date(), emit })).toBeNull();
    const again = await admin<{ orderInvoiceSend: Errors }>(INVOICE, { id: order.id });
    expect(again.orderInvoiceSend.userErrors).toEqual([expect.objectContaining({ message: "The order has nothing outstanding to pay." })]);
  });

  it("refuses an invoice for an order with no e-mail address to send it to", async () => {
    const { admin, order } = world({ email: null });
    const sent = await admin<{ orderInvoiceSend: Errors }>(INVOICE, { id: order.id });
    expect(sent.orderInvoiceSend.userErrors).toEqual([expect.objectContaining({ code: "ORDER_INVOICE_SEND_UNSUCCESSFUL" })]);
    expect(order.invoices ?? []).toEqual([]);
  });

  it("marks an order paid and sends orders/paid; an order paid already is refused", async () => {
    const { admin, order, events } = world();
    const marked = await admin<{ orderMarkAsPaid: Errors & { order: { displayFinancialStatus: string } } }>(MARK_PAID, { input: { id: order.id } });
    expect(marked.orderMarkAsPaid).toMatchObject({ order: { displayFinancialStatus: "PAID" }, userErrors: [] });
    expect(events.map((event) => event.topic)).toEqual(["orders/paid"]);
    const twice = await admin<{ orderMarkAsPaid: Errors }>(MARK_PAID, { input: { id: order.id } });
    expect(twice.orderMarkAsPaid.userErrors).toEqual([expect.objectContaining({ message: "Order cannot be marked as paid." })]);
    expect(events).toHaveLength(1);
  });

  it("replaces the shipping address with orderUpdate, and refuses a PIN code that is not six digits", async () => {
    const { admin, order } = world();
    const address = { firstName: "Meera", lastName: "Nair", address1: "Flat 2C, Pattom Palace Road", city: "Thiruvananthapuram", provinceCode: "KL", zip: "695004", countryCode: "IN", phone: "9895012399" };
    const updated = await admin<{ orderUpdate: Errors & { order: { shippingAddress: Record<string, string> } } }>(UPDATE, { input: { id: order.id, shippingAddress: address } });
    expect(updated.orderUpdate).toMatchObject({ order: { shippingAddress: { address1: "Flat 2C, Pattom Palace Road", zip: "695004", province: "Kerala", phone: "9895012399" } }, userErrors: [] });
    const refused = await admin<{ orderUpdate: Errors }>(UPDATE, { input: { id: order.id, shippingAddress: { ...address, zip: "69500" } } });
    expect(refused.orderUpdate.userErrors).toEqual([expect.objectContaining({ field: ["shippingAddress", "zip"] })]);
    expect(order.shippingAddress?.zip).toBe("695004");
  });
});
