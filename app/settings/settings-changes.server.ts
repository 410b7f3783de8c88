import type { Prisma } from "@prisma/client";
import pg from "pg";
import prisma, { databaseUrl } from "~/db.server";
import { describeError } from "~/logging.server";

/**
 * A shop's settings as the storefront sees them are kept in each app process's memory (app/storefront/
 * delivery-estimate.server.ts): shoppers outnumber merchants, and a database read per shopper would be the largest
 * cost of an estimate answered from memory. When the merchant saves them, every process must forget its copy at
 * once, not when it runs out: the save announces the shop on a PostgreSQL channel (`NOTIFY`, delivered when the
 * save commits), and each process listens on a connection of its own. A listener whose connection was lost and made
 * again may have missed changes meanwhile: it is told so (`null`), and forgets every shop.
 */
const CHANNEL = "dakiya_storefront_settings";

/** Tells every Dakiya process that the shop's settings changed: inside `tx`, when its transaction commits. */
export async function announceStorefrontChange(shop: string, tx?: Prisma.TransactionClient): Promise<void> {
  await (tx ?? prisma).$executeRaw`SELECT pg_notify(${CHANNEL}, ${shop})`;
}

export interface StorefrontChangeListener {
  /** Resolves once the first connection listens (changes saved from then on are heard). */
  ready: Promise<void>;
  close(): Promise<void>;
}

declare global {
  // Every listener of the process, whichever copy of this module made it (the build, or the source the workers load), for shutdown.
  var __dakiyaStorefrontListeners: Set<StorefrontChangeListener> | undefined;
}
const listeners = (globalThis.__dakiyaStorefrontListeners ??= new Set());

/**
 * Calls `onChange(shop)` for every change announced by any process, and `onChange(null)` after a lost connection
 * is made again (changes may have been missed). Reconnects after `reconnectMs`, doubling up to a minute.
 */
export function listenForStorefrontChanges(onChange: (shop: string | null) => void, { url = databaseUrl(), reconnectMs = 1_000 }: { url?: string; reconnectMs?: number } = {}): StorefrontChangeListener {
  let client: pg.Client | null = null;
  let closed = false;
  let connectedBefore = false;
  let wait = reconnectMs;
  let timer: NodeJS.Timeout | null = null;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, wait);
    timer.unref();
    wait = Math.min(60_000, wait * 2);
  };

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url, application_name: "dakiya-storefront-settings" });
    // A lost connection emits 'error' and then 'end': the 'end' makes it again.
    next.on("error", (error: Error & { code?: string }) => console.warn(`Storefront settings listener: connection lost (${describeError(error)})`));
    next.on("notification", (message) => {
      if (message.channel === CHANNEL && message.payload) onChange(message.payload);
    });
    next.on("end", () => {
      if (client === next) client = null;
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      console.warn(`Storefront settings listener: cannot listen yet (${describeError(error)}); trying again`);
      await next.end().catch(() => undefined);
      retry();
      return;
    }
    if (closed) return void (await next.end().catch(() => undefined));
    client = next;
    wait = reconnectMs;
    if (connectedBefore) onChange(null);
    connectedBefore = true;
    markReady();
  }

  const listener: StorefrontChangeListener = {
    ready,
    async close() {
      closed = true;
      listeners.delete(listener);
      if (timer) clearTimeout(timer);
      markReady();
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
  listeners.add(listener);
  void connect();
  return listener;
}

/** Closes every listener of the process (shutdown: before the database goes). */
export async function closeStorefrontListeners(): Promise<void> {
  await Promise.all([...listeners].map((listener) => listener.close()));
}
