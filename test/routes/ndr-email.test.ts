import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "~/db.server";
import { getConfig } from "~/config.server";
import { enqueue } from "~/jobs/job-queue.server";
import { shipOrders } from "~/orders/ship-orders.server";
import { action as deskAction } from "~/routes/app.failed-deliveries";
import { action as instructionsAction } from "~/routes/app.failed-deliveries.instructions";
import { action as emailAction, loader as emailLoader } from "~/routes/app.failed-deliveries_.email";
import { loader as attentionLoader } from "~/routes/app.attention";
import { action as trackAction } from "~/routes/track.$awb";
import { sendDayNdrEmail } from "~/failed-deliveries/ndr-email.server";
import { preferredDays } from "~/failed-deliveries/shopper-answer";
import { courierClientFor, sandboxCredentialsFor, secretBox } from "~/settings/shop-settings.server";
import { trackingLinkTokenOf } from "~/shipping/tracking-url";
import { dayIn, startOfDay } from "~/shop-time";
import { defaultJobDeps } from "~/workers/job-handlers.server";
import { startAppCourierService, type RunningCourierService } from "../support/courier-service";
import { resetJobs, runJobs, queuedJobs } from "../support/jobs";
import { attachmentOf, headerOf, startMailCatcher, trustTestMailAuthority } from "../support/mail-catcher";
import { shopperOrder } from "../support/orders";
import { startStore } from "../support/store";
import { uniqueShop } from "../support/webhooks";
import { seedShop } from "../../store/seed";

/**
 * The day's NDR instructions by e-mail, through a real SMTP server (a local mail catcher speaking SMTP), the real
 * courier sandbox over HTTP, the tracking sync and the local Shopify store: the SMTP settings are checked with a
 * sign-in on save (a refusal says what to fix, and nothing is saved), the password is sealed and never sent back; at
 * the shop's hour the sweep's job mails the decisions not yet handed off and marks each handed off exactly once, even
 * when the job runs twice or two run at once; a failed send hands nothing off, is retried and is on Needs attention
 * until it goes.
 */
const USER = "ndr-desk@shop.example";
const PASSWORD = "s3cret SMTP pass";
const TIME_ZONE = "Asia/Kolkata";
const SEND_HOUR = 18;

let courier: RunningCourierService;
let store: Awaited<ReturnType<typeof startStore>>;
let mail: Awaited<ReturnType<typeof startMailCatcher>>;
let placed = 0;

beforeAll(async () => {
  await resetJobs();
  courier = await startAppCourierService({ appTrackingLinks: true });
  const domain = uniqueShop("ndr-email");
  store = await startStore({ domain, shops: [seedShop(domain)], throttle: { maximumAvailable: 20_000, restoreRate: 1_000 } });
  await store.install();
  await prisma.shipment.updateMany({ where: { shop: { not: store.domain } }, data: { nextSyncAt: null } });
  mail = await startMailCatcher({ user: USER, password: PASSWORD });
  // The mail catcher listens on this machine, which a merchant's settings may not name unless the operator allows it.
  process.env.SMTP_INTERNAL_HOSTS_ALLOWED = "1";
});
afterAll(async () => {
  delete process.env.SMTP_INTERNAL_HOSTS_ALLOWED;
  await mail?.close();
  await store?.close();
  await courier?.close();
});

/** An instant at `hour`:05 of the shop's day `daysAhead` days from today. */
const at = (hour: number, daysAhead = 0) => new Date(startOfDay(dayIn(new Date(Date.now() + daysAhead * 86_400_000), TIME_ZONE), TIME_ZONE)!.getTime() + (hour * 60 + 5) * 60_000);

const settingsForm = (overrides: Record<string, string> = {}) =>
  new URLSearchParams({ intent: "save", recipient: "ndr@courier.example", sendHour: String(SEND_HOUR), smtpHost: mail.host, smtpPort: String(mail.port), smtpSecurity: "none", smtpUser: USER, smtpPassword: PASSWORD, fromAddress: "orders@shop.example", ...overrides });

async function saveSettings(form: URLSearchParams) {
  const response = await emailAction({ request: store.adminRequest("/app/failed-deliveries/email", { method: "POST", body: form }), params: {}, context: {} });
  return { status: response.status, body: (await response.json()) as { ok: boolean; notice: { id: string; failure?: string }; problems: string[]; message: string } };
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A parcel booked, failed at the door (the courier's reason given) and read by one tracking cycle. */
async function failedParcel(reason: "address_incomplete" | "refused") {
  const order = store.simulator.placeOrder(store.domain, shopperOrder(800 + ++placed));
  const [result] = await shipOrders(store.domain, await defaultJobDeps.adminFor(store.domain), [order.id], { policy: "recommended" });
  expect(result).toMatchObject({ outcome: "booked" });
  const shipment = await prisma.shipment.findUniqueOrThrow({ where: { shop_orderGid_parcel: { shop: store.domain, orderGid: order.id, parcel: 1 } } });
  await courierClientFor(sandboxCredentialsFor(store.domain)).advanceSandboxShipment(shipment.awb!, 9, reason);
  await trackingCycle();
  return { order, shipment: await prisma.shipment.findUniqueOrThrow({ where: { id: shipment.id } }) };
}

/** The tracking sync's clock: each cycle some hours on, so every parcel read before is due again. */
let syncedAt = Date.now();
async function trackingCycle() {
  syncedAt += 6 * 3_600_000;
  await enqueue("tracking-sweep", {});
  const run = await runJobs(["tracking-sweep", "tracking-sync"], { deps: { now: () => new Date(syncedAt) } });
  expect(run.failed).toEqual([]);
}

async function decide(shipmentId: number, decision: "reattempt" | "rto") {
  const response = await deskAction({ request: store.adminRequest("/app/failed-deliveries", { method: "POST", body: new URLSearchParams({ intent: "decide", decision, remarks: "", shipmentIds: String(shipmentId) }) }), params: {}, context: {} });
  expect(response.status).toBe(200);
}

/** The sweep and the jobs it starts, as the worker runs them at `now`. */
const runTheHour = (now: Date) => enqueue("ndr-email-sweep", {}).then(() => runJobs(["ndr-email-sweep", "ndr-email"], { deps: { now: () => now } }));

const handedOffEvents = (shipmentId: number) => prisma.failedDeliveryEvent.findMany({ where: { failedDelivery: { shipmentId }, transition: "handed_off" } });

/** A CSV line's fields: quoted ones may hold commas. */
const csvLine = (line: string) => [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, value]) => (value!.startsWith('"') ? value!.slice(1, -1).replace(/""/g, '"') : value!));

describe("the NDR instructions by e-mail", () => {
  it("checks the SMTP server on save: a refused sign-in, a closed port and bad fields each get a 422 saying what to fix and save nothing; the password is sealed and never sent back", async () => {
    const wrong = await saveSettings(settingsForm({ smtpPassword: "not the password" }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.notice).toMatchObject({ id: "smtp", failure: "auth" });
    expect(wrong.body.message).toBe(`${mail.host}:${mail.port} refused the user name and password: check them (a mailbox with two-step sign-in needs an app password)`);
    expect(wrong.body.message).not.toContain("not the password");

    const port = await closedPort();
    const closed = await saveSettings(settingsForm({ smtpPort: String(port) }));
    expect(closed.status).toBe(422);
    expect(closed.body.notice).toMatchObject({ id: "smtp", failure: "refused" });
    expect(closed.body.message).toBe(`Nothing answered at ${mail.host}:${port}: check the host and the port`);

    // Unless the operator allows it, a host on this machine or a private network is refused before any connection.
    delete process.env.SMTP_INTERNAL_HOSTS_ALLOWED;
    const signInsBeforeRefusals = mail.signIns;
    try {
      for (const internal of ["127.0.0.1", "localhost", "10.1.2.3", "169.254.169.254", "::1", "192.168.0.10"]) {
        const refused = await saveSettings(settingsForm({ smtpHost: internal }));
        expect(refused.status, internal).toBe(422);
        expect(refused.body.notice, internal).toMatchObject({ id: "smtp", failure: "internal" });
      }
    } finally {
      process.env.SMTP_INTERNAL_HOSTS_ALLOWED = "1";
    }
    // The mail catcher on 127.0.0.1 takes these settings' user and password: not one sign-in came from the refusals.
    expect(mail.signIns).toBe(signInsBeforeRefusals);

    const fields = await saveSettings(settingsForm({ recipient: "not an address", smtpPort: "70000", smtpHost: `${"a".repeat(300)}.example`, sendHour: "24", smtpUser: "line\nbreak", smtpSecurity: "ssl" }));
    expect(fields.status).toBe(422);
    expect(fields.body.problems.sort()).toEqual(["recipient", "sendHour", "smtpHost", "smtpPort", "smtpSecurity", "smtpUser"]);
    expect(fields.body.message).toBe("Fix the fields marked below; nothing was saved.");

    const noPassword = await saveSettings(settingsForm({ smtpPassword: "" }));
    expect(noPassword.status).toBe(422);
    expect(noPassword.body).toMatchObject({ problems: ["smtpPassword"], message: "Enter the password: none is saved yet." });
    expect(await prisma.ndrEmailSettings.findUnique({ where: { shop: store.domain } })).toBeNull();

    const signInsBefore = mail.signIns;
    const saved = await saveSettings(settingsForm());
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(`Checked and saved: your server took the sign-in. The instructions go every day at ${SEND_HOUR}:00.`);
    expect(mail.signIns).toBe(signInsBefore + 1);
    const row = await prisma.ndrEmailSettings.findUniqueOrThrow({ where: { shop: store.domain } });
    expect(row).toMatchObject({ recipient: "ndr@courier.example", sendHour: SEND_HOUR, timeZone: TIME_ZONE, smtpSecurity: "none", smtpUser: USER });
    expect(row.smtpPasswordCipher).not.toContain(PASSWORD);
    expect(secretBox().open(row.smtpPasswordCipher)).toBe(PASSWORD);

    // The page has the settings, and that a password is saved, never the password.
    const page = await emailLoader({ request: store.adminRequest("/app/failed-deliveries/email"), params: {}, context: {} });
    const text = await page.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(row.smtpPasswordCipher);
    expect(JSON.parse(text).settings).toMatchObject({ recipient: "ndr@courier.example", hasPassword: true });

    // Saved again without a password: the stored one signs in and stays.
    const kept = await saveSettings(settingsForm({ smtpPassword: "", recipient: "ndr-desk@courier.example" }));
    expect(kept.status).toBe(200);
    expect(secretBox().open((await prisma.ndrEmailSettings.findUniqueOrThrow({ where: { shop: store.domain } })).smtpPasswordCipher)).toBe(PASSWORD);
    await saveSettings(settingsForm());
  });

  it("mails the day's decisions at the shop's hour with the shopper's day and landmark, marks each handed off exactly once though the job runs twice and two run at once; the courier's re-attempt then delivers it", async () => {
    const saved = await failedParcel("address_incomplete");
    const returned = await failedParcel("refused");
    expect(saved.shipment).toMatchObject({ outcome: "delivery_attempted", deliveryAttempts: 1 });
    // The shopper adds a landmark on their tracking link; the merchant re-attempts one and returns the other.
    const [day] = preferredDays(new Date(), { closedWeekdays: [0], closedDates: [] });
    const token = trackingLinkTokenOf(saved.shipment.trackingUrl)!;
    const answer = await trackAction({
      request: new Request(`${getConfig().SHOPIFY_APP_URL}/track/${saved.shipment.awb}?token=${token}&lang=en`, { method: "POST", body: new URLSearchParams({ answer: "deliver_again", preferredDate: day!, preferredSlot: "morning", landmark: "Behind the water tank, Gate 2" }) }),
      params: { awb: saved.shipment.awb! },
      context: { clientAddress: "198.51.100.9" },
    });
    expect(answer.status).toBe(200);
    await decide(saved.shipment.id, "reattempt");
    await decide(returned.shipment.id, "rto");

    // Before the hour, nothing goes.
    const before = await runTheHour(at(SEND_HOUR - 1));
    expect(before.failed).toEqual([]);
    expect(await queuedJobs("ndr-email", store.domain)).toEqual([]);
    expect(mail.mails).toHaveLength(0);

    // At the hour: two sends at once (the job and a second worker's copy), then the job once more. One mail.
    const hour = at(SEND_HOUR);
    const [first, second] = await Promise.all([sendDayNdrEmail(store.domain, hour), sendDayNdrEmail(store.domain, hour)]);
    expect([first.kind, second.kind].sort()).toEqual(["already_sent", "sent"]);
    const again = await runTheHour(hour);
    expect(again.failed).toEqual([]);
    expect(await sendDayNdrEmail(store.domain, hour)).toEqual({ kind: "already_sent" });
    expect(mail.mails).toHaveLength(1);

    const [sent] = mail.mails;
    expect(sent!.to).toEqual(["ndr@courier.example"]);
    expect(sent!.from).toBe("orders@shop.example");
    expect(headerOf(sent!.raw, "Subject")).toBe(`NDR instructions ${dayIn(hour, TIME_ZONE)}: 2 parcels`);
    const attachment = attachmentOf(sent!.raw, /^ndr-instructions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(attachment?.fileName).toBe(`ndr-instructions-${dayIn(hour, TIME_ZONE)}.csv`);
    const [header, ...lines] = attachment!.content.replace(/^\uFEFF/, "").trim().split("\r\n").map(csvLine);
    const rows = lines.map((line) => Object.fromEntries(line.map((value, index) => [header![index]!, value])));
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.AWB === saved.shipment.awb)).toMatchObject({ Action: "RE-ATTEMPT", "Preferred date": day, Window: "09:00-13:00", Landmark: "Behind the water tank, Gate 2" });
    expect(rows.find((row) => row.AWB === returned.shipment.awb)).toMatchObject({ Action: "RTO", "Preferred date": "", Landmark: "" });

    for (const { shipment } of [saved, returned]) {
      const events = await handedOffEvents(shipment.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ actorKind: "job", reason: "In the NDR instructions e-mailed to the courier" });
    }
    const dispatch = await prisma.ndrEmailDispatch.findUniqueOrThrow({ where: { shop_day: { shop: store.domain, day: dayIn(hour, TIME_ZONE) } } });
    expect(dispatch).toMatchObject({ handedOff: 2, lastError: null });
    expect(dispatch.messageId).toBe(headerOf(sent!.raw, "Message-ID"));
    // Downloaded after the mail, the instructions have nothing of these two.
    const download = await instructionsAction({ request: store.adminRequest("/app/failed-deliveries/instructions", { method: "POST" }), params: {}, context: {} });
    const csv = await download.text();
    for (const { shipment } of [saved, returned]) expect(csv).not.toContain(shipment.awb!);

    // The courier acts on the mail in the sandbox: out again and delivered; and back to origin.
    const sandbox = courierClientFor(sandboxCredentialsFor(store.domain));
    await sandbox.reattemptSandboxShipment(saved.shipment.awb!, 1, "delivered");
    await sandbox.reattemptSandboxShipment(returned.shipment.awb!, 1, "rto");
    await trackingCycle();
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: saved.shipment.id } })).toMatchObject({ outcome: "delivered", deliveryAttempts: 1 });
    expect(await prisma.shipment.findUniqueOrThrow({ where: { id: returned.shipment.id } })).toMatchObject({ outcome: "rto_initiated" });
    const statuses = (orderGid: string) =>
      store.simulator
        .shop(store.domain)
        .orders.find((order) => order.id === orderGid)!
        .fulfillments.flatMap((fulfillment) => fulfillment.events)
        .sort((a, b) => a.happenedAt.localeCompare(b.happenedAt))
        .map((event) => event.status);
    const savedStatuses = statuses(saved.order.id);
    expect(savedStatuses.lastIndexOf("DELIVERED")).toBeGreaterThan(savedStatuses.indexOf("ATTEMPTED_DELIVERY"));
    expect(savedStatuses.indexOf("ATTEMPTED_DELIVERY")).toBeGreaterThan(-1);
    const returnedStatuses = statuses(returned.order.id);
    expect(returnedStatuses.lastIndexOf("FAILURE")).toBeGreaterThan(returnedStatuses.indexOf("ATTEMPTED_DELIVERY"));
  });

  it("a failed send hands nothing off, is on Needs attention with what to check, and is retried until it goes", async () => {
    const { shipment } = await failedParcel("refused");
    await decide(shipment.id, "rto");
    const tomorrow = at(SEND_HOUR, 1);
    mail.refuse(true);
    try {
      const failed = await runTheHour(tomorrow);
      expect(failed.failed).toEqual([{ queue: "ndr-email", message: `The day's NDR instructions e-mail was not sent: ${mail.host}:${mail.port} asked to try again later (SMTP 451)` }]);
      expect(mail.mails).toHaveLength(1);
      expect(await handedOffEvents(shipment.id)).toEqual([]);
      expect(await prisma.failedDelivery.findUniqueOrThrow({ where: { shipmentId: shipment.id } })).toMatchObject({ state: "decided", handedOffAt: null });
      const dispatch = await prisma.ndrEmailDispatch.findUniqueOrThrow({ where: { shop_day: { shop: store.domain, day: dayIn(tomorrow, TIME_ZONE) } } });
      expect(dispatch).toMatchObject({ attempts: 1, sentAt: null, lastErrorKind: "deferred" });

      const attention = await (await attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} })).json();
      expect(attention.ndrEmail).toMatchObject({ day: dayIn(tomorrow, TIME_ZONE), kind: "deferred", attempts: 1, host: mail.host, port: mail.port });
    } finally {
      mail.refuse(false);
    }
    // The queue's retry (its back-off not waited for here) sends it.
    const retried = await runJobs(["ndr-email"], { deps: { now: () => tomorrow } });
    expect(retried).toMatchObject({ ran: 1, failed: [] });
    expect(mail.mails).toHaveLength(2);
    expect(attachmentOf(mail.mails[1]!.raw, /\.csv$/)!.content).toContain(`${shipment.awb},`);
    expect(await handedOffEvents(shipment.id)).toHaveLength(1);
    const attention = await (await attentionLoader({ request: store.adminRequest("/app/attention"), params: {}, context: {} })).json();
    expect(attention.ndrEmail).toBeNull();
  });

  it("a download that waited on another's hand-off lists only what is still its own: a decision goes to the courier in one file", async () => {
    const { shipment } = await failedParcel("refused");
    await decide(shipment.id, "rto");
    // Another download holds the decision's row, and hands it off while this one waits for it.
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const other = prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM "FailedDelivery" WHERE "shipmentId" = ${shipment.id} FOR UPDATE`;
        locked();
        await released;
        await tx.$executeRaw`UPDATE "FailedDelivery" SET state = 'handed_off', "handedOffAt" = now() WHERE "shipmentId" = ${shipment.id}`;
      },
      { timeout: 60_000 },
    );
    await isLocked;
    const download = instructionsAction({ request: store.adminRequest("/app/failed-deliveries/instructions", { method: "POST" }), params: {}, context: {} }).then((response) => response.text());
    await expect
      .poll(async () => Number((await prisma.$queryRaw<{ waiting: bigint }[]>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)[0]!.waiting), { timeout: 30_000 })
      .toBeGreaterThan(0);
    release();
    await other;
    expect(await download).not.toContain(shipment.awb!);
    expect(await handedOffEvents(shipment.id)).toEqual([]);
  });

  it("stops on the merchant's word: the settings and the sealed password go, the sweep sends nothing more", async () => {
    const stop = await emailAction({ request: store.adminRequest("/app/failed-deliveries/email", { method: "POST", body: new URLSearchParams({ intent: "stop" }) }), params: {}, context: {} });
    expect(stop.status).toBe(200);
    expect(await prisma.ndrEmailSettings.findUnique({ where: { shop: store.domain } })).toBeNull();
    const { shipment } = await failedParcel("refused");
    await decide(shipment.id, "rto");
    await runTheHour(at(SEND_HOUR, 2));
    expect(await queuedJobs("ndr-email", store.domain)).toEqual([]);
    expect(mail.mails).toHaveLength(2);
    const unknown = await emailAction({ request: store.adminRequest("/app/failed-deliveries/email", { method: "POST", body: new URLSearchParams({ intent: "delete-everything" }) }), params: {}, context: {} });
    expect(unknown.status).toBe(400);
  });
});

describe("over the secured connections merchants' mail providers give", () => {
  let starttls: Awaited<ReturnType<typeof startMailCatcher>>;
  let implicitTls: Awaited<ReturnType<typeof startMailCatcher>>;
  let selfSigned: Awaited<ReturnType<typeof startMailCatcher>>;
  let trustAsBefore: () => void;
  beforeAll(async () => {
    trustAsBefore = trustTestMailAuthority();
    starttls = await startMailCatcher({ user: USER, password: PASSWORD, security: "starttls" });
    implicitTls = await startMailCatcher({ user: USER, password: PASSWORD, security: "tls" });
    selfSigned = await startMailCatcher({ user: USER, password: PASSWORD, security: "starttls", certificate: "self-signed" });
  });
  afterAll(async () => {
    trustAsBefore?.();
    await Promise.all([starttls, implicitTls, selfSigned].map((catcher) => catcher?.close()));
  });

  it("refuses on save, saving nothing and signing in nowhere, what would not be secure or does not fit the server: each says what to fix", async () => {
    const signInsBefore = [starttls.signIns, implicitTls.signIns, selfSigned.signIns];
    const refusals = [
      // A certificate from no authority the app trusts.
      { form: { smtpHost: selfSigned.host, smtpPort: String(selfSigned.port), smtpSecurity: "starttls" }, failure: "certificate", where: `${selfSigned.host}:${selfSigned.port}` },
      // The server's address rather than the name on its certificate.
      { form: { smtpHost: "127.0.0.1", smtpPort: String(starttls.port), smtpSecurity: "starttls" }, failure: "certificate", where: `127.0.0.1:${starttls.port}` },
      // TLS from the first byte, of a port that greets in plain SMTP and offers STARTTLS.
      { form: { smtpHost: starttls.host, smtpPort: String(starttls.port), smtpSecurity: "tls" }, failure: "tls", where: `${starttls.host}:${starttls.port}` },
      // STARTTLS, of a server that offers none.
      { form: { smtpHost: mail.host, smtpPort: String(mail.port), smtpSecurity: "starttls" }, failure: "tls", where: `${mail.host}:${mail.port}` },
      // No security, of a server that takes the password only once the connection is secured.
      { form: { smtpHost: starttls.host, smtpPort: String(starttls.port), smtpSecurity: "none" }, failure: "tls", where: `${starttls.host}:${starttls.port}` },
    ];
    for (const { form, failure, where } of refusals) {
      const refused = await saveSettings(settingsForm(form));
      expect(refused.status, JSON.stringify(form)).toBe(422);
      expect(refused.body.notice, JSON.stringify(form)).toMatchObject({ id: "smtp", failure, host: form.smtpHost, port: form.smtpPort });
      expect(refused.body.message, JSON.stringify(form)).toContain(where);
      expect(refused.body.message).not.toContain(PASSWORD);
    }
    const [certificate, address, tlsOfStarttls, starttlsOfPlain, noneOfSecured] = await Promise.all(refusals.map(({ form }) => saveSettings(settingsForm(form))));
    expect(certificate!.body.message).toBe(`The certificate ${selfSigned.host}:${selfSigned.port} presented is not valid for ${selfSigned.host} or not from a trusted authority: give the host name your mail provider publishes, the one on its certificate`);
    expect(address!.body.notice).toMatchObject({ failure: "certificate" });
    expect(tlsOfStarttls!.body.message).toBe(`The secure connection to ${starttls.host}:${starttls.port} failed: check the security (TLS usually on port 465, STARTTLS on 587)`);
    expect(starttlsOfPlain!.body.notice).toMatchObject({ failure: "tls" });
    expect(noneOfSecured!.body.message).toBe(`${starttls.host}:${starttls.port} takes a sign-in only over a secure connection: choose STARTTLS (usually port 587) or TLS (usually port 465)`);
    expect(await prisma.ndrEmailSettings.findUnique({ where: { shop: store.domain } })).toBeNull();
    expect([starttls.signIns, implicitTls.signIns, selfSigned.signIns]).toEqual(signInsBefore);
  });

  it("STARTTLS (as on port 587) and TLS (as on 465): checked with a sign-in on save, and the day's instructions mailed over the secured connection", async () => {
    for (const [catcher, security, daysAhead] of [
      [starttls, "starttls", 3],
      [implicitTls, "tls", 4],
    ] as const) {
      const signInsBefore = catcher.signIns;
      const saved = await saveSettings(settingsForm({ smtpHost: catcher.host, smtpPort: String(catcher.port), smtpSecurity: security }));
      expect(saved.status, security).toBe(200);
      expect(catcher.signIns).toBe(signInsBefore + 1);
      expect(await prisma.ndrEmailSettings.findUniqueOrThrow({ where: { shop: store.domain } })).toMatchObject({ smtpHost: "localhost", smtpSecurity: security });

      const { shipment } = await failedParcel("refused");
      await decide(shipment.id, "rto");
      const run = await runTheHour(at(SEND_HOUR, daysAhead));
      expect(run.failed).toEqual([]);
      expect(catcher.mails).toHaveLength(1);
      expect(catcher.mails[0]).toMatchObject({ to: ["ndr@courier.example"], secure: true });
      expect(attachmentOf(catcher.mails[0]!.raw, /\.csv$/)!.content).toContain(`${shipment.awb},`);
      expect(await handedOffEvents(shipment.id)).toHaveLength(1);
    }
    expect(selfSigned.mails).toEqual([]);
  });
});
