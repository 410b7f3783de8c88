import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { continueIdsAfter, lastId, type StoreShop } from "./model";

/**
 * The local store's shops on disk, beside the demo's database: a second `npm run demo` meets the orders,
 * fulfillments, tags and tokens the first one left, as the app's database remembers them. Written whole after every
 * change, before the answer that reports the change goes out (the simulator's `onChange`), to a temporary file then
 * renamed over the old one: a demo killed at any moment leaves the last complete state, never half of one.
 */

const FORMAT = 1;

interface SavedShop extends Omit<StoreShop, "accessTokens" | "refreshTokens" | "bucket" | "faults"> {
  /** [token, scope, expiry in ms or null for a token that never expires]. */
  accessTokens: [string, string, number | null][];
  refreshTokens: [string, number][];
}

interface SavedState {
  format: typeof FORMAT;
  /** The simulator's id sequence: new objects continue after it. */
  lastId: number;
  shops: SavedShop[];
}

function toSaved(shop: StoreShop): SavedShop {
  const { accessTokens, refreshTokens, bucket: _bucket, faults: _faults, ...rest } = shop;
  return {
    ...rest,
    // JSON has no Infinity: a non-expiring token is saved as null.
    accessTokens: [...accessTokens].map(([token, { scope, expiresAt }]) => [token, scope, Number.isFinite(expiresAt) ? expiresAt : null]),
    refreshTokens: [...refreshTokens].map(([token, { expiresAt }]) => [token, expiresAt]),
  };
}

function fromSaved(saved: SavedShop): StoreShop {
  return {
    ...saved,
    accessTokens: new Map(saved.accessTokens.map(([token, scope, expiresAt]) => [token, { scope, expiresAt: expiresAt ?? Number.POSITIVE_INFINITY }])),
    refreshTokens: new Map(saved.refreshTokens.map(([token, expiresAt]) => [token, { expiresAt }])),
    // Throttling and injected failures belong to one run: a restored shop starts with a full bucket and no faults.
    bucket: { available: Number.NaN, updatedAt: 0 },
    faults: new Map(),
  };
}

export function saveStoreState(file: string, shops: Iterable<StoreShop>): void {
  const state: SavedState = { format: FORMAT, lastId: lastId(), shops: [...shops].map(toSaved) };
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify(state));
  renameSync(partial, file);
}

/** The saved shops, with the id sequence moved past every saved id; null when nothing was saved. */
export function loadStoreState(file: string): StoreShop[] | null {
  if (!existsSync(file)) return null;
  const state = JSON.parse(readFileSync(file, "utf8")) as SavedState;
  if (state.format !== FORMAT) throw new Error(`${file} was saved by another version of the local store: delete it to start the store afresh`);
  continueIdsAfter(state.lastId);
  return state.shops.map(fromSaved);
}
