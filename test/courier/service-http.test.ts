import { inspect } from "node:util";
import type { PrismaClient } from "@prisma/client";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import prisma from "~/db.server";
import { createServiceHandler, describeFailure } from "~/shipping/service/http.server";
import { DEFAULT_RATE_CARDS } from "~/shipping/service/rate-cards";
import { ensureSandbox } from "~/shipping/service/sandbox-seed.server";
import { createShipmentService } from "~/shipping/service/shipment-service.server";
import { serveFetch } from "../../store/serve-fetch";
import { SANDBOX_KEY, SANDBOX_SECRET } from "../support/courier-service";
import { sampleOrder } from "../support/orders";

beforeAll(async () => {
  await ensureSandbox(prisma, SANDBOX_KEY, SANDBOX_SECRET);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Everything written to the console while `work` runs, as the console would print it. */
async function consoleOutput(work: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const capture = (...args: unknown[]) => {
    lines.push(args.map((arg) => (typeof arg === "string" ? arg : inspect(arg, { depth: Infinity }))).join(" "));
  };
  for (const method of ["error", "warn", "log", "info", "debug"] as const) vi.spyOn(console, method).mockImplementation(capture);
  await work();
  return lines.join("\n");
}

/**
 * The real database, except that writing an order fails the way Prisma fails: with an error whose
 * message quotes the whole row, the shopper's name, phone and address included.
 */
function databaseRefusingOrders(): PrismaClient {
  const refusingOrders = (tx: PrismaClient) =>
    new Proxy(tx, {
      get(target, property, receiver) {
        const delegate = Reflect.get(target, property, receiver);
        if (property !== "serviceOrder") return delegate;
        return new Proxy(delegate, {
          get: (orders, method, ordersReceiver) =>
            method === "create"
              ? (args: { data: object }) => orders.create({ ...args, data: { ...args.data, columnThatDoesNotExist: true } })
              : Reflect.get(orders, method, ordersReceiver),
        });
      },
    });
  return new Proxy(prisma, {
    get(target, property, receiver) {
      if (property !== "$transaction") return Reflect.get(target, property, receiver);
      return (work: (tx: PrismaClient) => Promise<unknown>) => target.$transaction((tx) => work(refusingOrders(tx as PrismaClient)));
    },
  });
}

describe("an unexpected failure", () => {
  const shopper = {
    name: "Meenakshi Sundaravalli Iyengar",
    mobile: "9876501234",
    alt_mobile: "9123409876",
    email: "meenakshi.iyengar@example.in",
    company_name: "Iyengar Silks",
    address_line_1: "Flat 7B, Lotus Residency, 14th Main Road",
    address_line_2: "Behind Kamakshi Temple",
    delivery_remarks: "Ring twice, ask for Meenakshi",
  };

  it("is logged with the operation and the kind of error, never the shopper's details or the secret", async () => {
    const service = createShipmentService({ db: databaseRefusingOrders(), now: () => new Date(), rateCards: DEFAULT_RATE_CARDS });
    const client = await prisma.apiClient.findUniqueOrThrow({ where: { apiKey: SANDBOX_KEY } });
    // The premise: the database's own error carries the personal data.
    const raw = await service.createOrder(client, sampleOrder(shopper)).catch((error: unknown) => error);
    expect(inspect(raw)).toContain(shopper.name);

    const server = await serveFetch(createServiceHandler({ db: prisma, service, ready: async () => undefined }));
    try {
      let answer: Response | undefined;
      const output = await consoleOutput(async () => {
        answer = await fetch(`${server.url}/v1/create-order`, {
          method: "POST",
          headers: { "X-Api-Key": SANDBOX_KEY, "X-Secret-Key": SANDBOX_SECRET, "Content-Type": "application/json" },
          body: JSON.stringify(sampleOrder(shopper)),
        });
      });
      expect(answer!.status).toBe(500);
      const body = await answer!.text();

      expect(output).toContain("create-order");
      expect(output).toContain("PrismaClientValidationError");
      for (const [field, value] of Object.entries({ ...shopper, secret: SANDBOX_SECRET, mobile_digits: "98765 01234" })) {
        expect(output, field).not.toContain(value);
        expect(body, field).not.toContain(value);
      }
      for (const fragment of ["Meenakshi", "Lotus Residency", "9876501234", "example.in"]) expect(output).not.toContain(fragment);
      // The answer and the log share a reference, so a client's report finds its log line.
      const reference = /reference ([\w-]+)/.exec(JSON.parse(body).message)?.[1];
      expect(reference).toBeDefined();
      expect(output).toContain(reference);
    } finally {
      await server.close();
    }
  });

  it("is described by its class, code and frames, never by its message", () => {
    const syntax = (() => {
      try {
        JSON.parse('{"name":"Meenakshi Sundaravalli Iyengar"');
      } catch (error) {
        return error;
      }
    })();
    const described = describeFailure(syntax);
    expect(described.errorClass).toBe("SyntaxError");
    expect(described.at.length).toBeGreaterThan(0);
    expect(inspect(described)).not.toContain("Meenakshi");

    const unique = Object.assign(new Error("Unique constraint failed for Meenakshi"), { code: "P2002" });
    expect(describeFailure(unique)).toMatchObject({ errorClass: "Error", code: "P2002" });
    expect(inspect(describeFailure(unique))).not.toContain("Meenakshi");
    expect(describeFailure({ name: "Meenakshi" })).toEqual({ errorClass: "object", at: [] });
  });
});
