import { pincodeOnlyScore, scoreCodRisk, type OutcomeCounts, type RiskInputs, type RiskLevel } from "../../app/cod/risk-score";

/**
 * A generated year of one shop's cash-on-delivery orders with how each parcel ended, and Dakiya's risk score run over
 * it as the order check runs it: each order scored at the moment it arrives, from the history the shop has by then
 * (parcels that ended before it: its PIN code's, district's and state's, the shopper's own), its address as written,
 * its value against the shop's usual and Shopify's assessment. Pure and seeded: the same seed is the same year.
 *
 * The world behind the outcomes follows what Indian D2C reports of RTO: about one COD parcel in five comes back; some
 * places refuse far more than others (a state's, a district's and a PIN code's own leaning, each drawn at random);
 * some shoppers refuse again and again; a made-up phone, an address without a house number or too short to find,
 * a city that is not the PIN code's, an order far above the shop's usual and Shopify's own fraud signal all come back
 * more often. The score is given none of that directly: it sees only what a shop would see. So the figures say how
 * much of the world the score recovers from a year of history, not how it does on any real shop.
 */

export interface CodOrder {
  day: number;
  /** The parcel's end (delivered or back), days after the order; null when the shopper cancelled before it shipped. */
  endsAfterDays: number | null;
  returned: boolean;
  failedAttempts: number;
  cancelled: boolean;
  shopper: number;
  pincode: string;
  district: string;
  state: string;
  city: string;
  addressLines: [string, string];
  phone: string;
  valuePaise: number;
  shopifyLevel: RiskInputs["shopifyLevel"];
}

export interface ScoredOrder extends CodOrder {
  score: number;
  level: RiskLevel;
  pincodeScore: number;
}

/** Mulberry32: small, fast and the same everywhere. */
function randomOf(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const CIRCLES: readonly { state: string; prefixes: readonly string[] }[] = [
  { state: "Bihar", prefixes: ["80", "84"] },
  { state: "Uttar Pradesh", prefixes: ["20", "22", "27"] },
  { state: "Maharashtra", prefixes: ["41", "42"] },
  { state: "Karnataka", prefixes: ["56", "57"] },
  { state: "Delhi", prefixes: ["11"] },
  { state: "West Bengal", prefixes: ["70", "72"] },
  { state: "Rajasthan", prefixes: ["30", "33"] },
  { state: "Tamil Nadu", prefixes: ["60", "62"] },
];

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

interface Place {
  pincode: string;
  district: string;
  state: string;
  city: string;
  leaning: number;
  /** How many of the shop's orders it draws, relative to the others. */
  weight: number;
}

interface Shopper {
  place: Place;
  leaning: number;
  phone: string;
  lines: [string, string];
}

/** The year: `codOrders` cash-on-delivery orders spread over 365 days, oldest first. */
export function generateCodYear({ seed, codOrders }: { seed: number; codOrders: number }): CodOrder[] {
  const random = randomOf(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

  const places: Place[] = [];
  for (const circle of CIRCLES) {
    const stateLeaning = 0.5 * normal();
    for (const prefix of circle.prefixes) {
      for (let digit = 1; digit <= 3; digit += 1) {
        const district = `${prefix}${digit}`;
        const districtLeaning = stateLeaning + 0.6 * normal();
        const city = `${circle.state} town ${district}`;
        for (let office = 0; office < 8; office += 1) {
          places.push({ pincode: `${district}${String(office * 7 + 1).padStart(3, "0")}`, district, state: circle.state, city, leaning: districtLeaning + 0.5 * normal(), weight: 1 / (1 + office) });
        }
      }
    }
  }
  const totalWeight = places.reduce((sum, place) => sum + place.weight, 0);
  const placeOf = () => {
    let left = random() * totalWeight;
    for (const place of places) if ((left -= place.weight) <= 0) return place;
    return places[places.length - 1]!;
  };

  const shoppers: Shopper[] = [];
  const newShopper = (): number => {
    const refuser = random() < 0.08;
    const madeUp = random() < 0.03;
    const phone = madeUp ? pick(["9999999999", "9876543210", "8888888888", "9000000000"]) : `${pick(["6", "7", "8", "9"])}${String(Math.floor(random() * 1e9)).padStart(9, "0")}`;
    const noNumber = random() < 0.08;
    const short = random() < 0.06;
    const line1 = short ? pick(["Near bus stand", "Main road", "Bazar"]) : noNumber ? "Behind the old post office, Station Road" : `${1 + Math.floor(random() * 400)}, Gandhi Nagar, Ward ${1 + Math.floor(random() * 30)}`;
    const line2 = short ? "" : "Near the water tank";
    const leaning = 0.7 * normal() + (refuser ? 1.8 : 0) + (madeUp ? 1.2 : 0) + (noNumber ? 0.6 : 0) + (short ? 0.6 : 0);
    shoppers.push({ place: placeOf(), leaning, phone, lines: [line1, line2] });
    return shoppers.length - 1;
  };

  const orders: CodOrder[] = [];
  for (let index = 0; index < codOrders; index += 1) {
    // About a quarter of orders come from someone who ordered before, more often from those who took their parcels.
    const returning = shoppers.length > 20 && random() < 0.28;
    const shopper = returning ? Math.floor(shoppers.length * Math.pow(random(), 1.6)) : newShopper();
    const who = shoppers[shopper]!;
    const wrongCity = random() < 0.03;
    const shopifyRoll = random();
    const shopifyLevel: RiskInputs["shopifyLevel"] = shopifyRoll < 0.015 ? "HIGH" : shopifyRoll < 0.055 ? "MEDIUM" : "LOW";
    const valuePaise = Math.round(90_000 * Math.exp(0.6 * normal()));
    const logit = -1.75 + who.place.leaning + who.leaning + (wrongCity ? 0.7 : 0) + (valuePaise > 250_000 ? 0.4 : 0) + (shopifyLevel === "HIGH" ? 1.5 : shopifyLevel === "MEDIUM" ? 0.5 : 0);
    const cancelled = random() < 0.04 * (1 + 2 * sigmoid(logit));
    const returned = !cancelled && random() < sigmoid(logit);
    orders.push({
      day: random() * 365,
      endsAfterDays: cancelled ? null : 4 + random() * (returned ? 14 : 6),
      returned,
      failedAttempts: cancelled ? 0 : returned ? 1 + Math.floor(random() * 3) : random() < 0.12 ? 1 : 0,
      cancelled,
      shopper,
      pincode: who.place.pincode,
      district: who.place.district,
      state: who.place.state,
      city: wrongCity ? `${pick(CIRCLES).state} town` : who.place.city,
      addressLines: who.lines,
      phone: who.phone,
      valuePaise,
      shopifyLevel,
    });
  }
  // A shopper's first order is the earliest of theirs, whatever order they were drawn in.
  return orders.sort((a, b) => a.day - b.day);
}

const blank = (): OutcomeCounts => ({ delivered: 0, returned: 0, failedAttempts: 0 });

function add(map: Map<string, OutcomeCounts>, key: string, order: CodOrder) {
  const counts = map.get(key) ?? blank();
  if (order.returned) counts.returned += 1;
  else counts.delivered += 1;
  counts.failedAttempts += order.failedAttempts;
  map.set(key, counts);
}

/** Every order scored when it arrives, from the parcels that had ended by then. */
export function scoreCodYear(orders: readonly CodOrder[]): ScoredOrder[] {
  const ends = orders.filter((order) => order.endsAfterDays !== null).sort((a, b) => a.day + a.endsAfterDays! - (b.day + b.endsAfterDays!));
  const byPincode = new Map<string, OutcomeCounts>();
  const byDistrict = new Map<string, OutcomeCounts>();
  const byState = new Map<string, OutcomeCounts>();
  const byShopper = new Map<string, OutcomeCounts>();
  const shop = blank();
  const ordersOf = new Map<number, number>();
  const cancelledOf = new Map<number, number>();
  const citiesOf = new Map<string, Map<string, number>>();
  const recentValues: { day: number; value: number }[] = [];
  let ended = 0;
  const scored: ScoredOrder[] = [];
  for (const order of orders) {
    while (ended < ends.length && ends[ended]!.day + ends[ended]!.endsAfterDays! <= order.day) {
      const done = ends[ended++]!;
      add(byPincode, done.pincode, done);
      add(byDistrict, done.district, done);
      add(byState, done.state, done);
      add(byShopper, String(done.shopper), done);
      if (done.returned) shop.returned += 1;
      else shop.delivered += 1;
      shop.failedAttempts += done.failedAttempts;
      const cities = citiesOf.get(done.pincode) ?? new Map<string, number>();
      cities.set(done.city, (cities.get(done.city) ?? 0) + 1);
      citiesOf.set(done.pincode, cities);
    }
    const cities = [...(citiesOf.get(order.pincode) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1]);
    const parcels = cities.reduce((sum, [, count]) => sum + count, 0);
    const recent = recentValues.filter((entry) => entry.day >= order.day - 90).map((entry) => entry.value).sort((a, b) => a - b);
    const areas = { pincode: byPincode.get(order.pincode) ?? blank(), district: byDistrict.get(order.district) ?? blank(), state: byState.get(order.state) ?? blank(), shop: { ...shop } };
    const inputs: RiskInputs = {
      pincode: order.pincode,
      city: order.city,
      state: order.state,
      addressLines: order.addressLines,
      phone: order.phone,
      valuePaise: order.valuePaise,
      areas,
      shopper: { orders: ordersOf.get(order.shopper) ?? 0, outcomes: byShopper.get(String(order.shopper)) ?? blank(), cancelled: cancelledOf.get(order.shopper) ?? 0 },
      usualValuePaise: recent.length >= 10 ? recent[Math.floor(recent.length / 2)]! : null,
      pincodeCity: cities[0] && cities[0][1] >= 3 && cities[0][1] * 3 >= parcels * 2 ? cities[0][0] : null,
      shopifyLevel: order.shopifyLevel,
    };
    const { score, level } = scoreCodRisk(inputs);
    scored.push({ ...order, score, level, pincodeScore: pincodeOnlyScore(areas) });
    ordersOf.set(order.shopper, (ordersOf.get(order.shopper) ?? 0) + 1);
    if (order.cancelled) cancelledOf.set(order.shopper, (cancelledOf.get(order.shopper) ?? 0) + 1);
    recentValues.push({ day: order.day, value: order.valuePaise });
  }
  return scored;
}

/**
 * The share of the parcels that came back among the `share` of shipped orders ranked riskiest by `rank` (ties in an
 * order fixed by `seed`, so a score of few distinct values is not flattered by the generator's order).
 */
export function caughtShare(orders: readonly ScoredOrder[], rank: (order: ScoredOrder) => number, share: number, seed = 7): number {
  const shipped = orders.filter((order) => !order.cancelled);
  const random = randomOf(seed);
  const keyed = shipped.map((order) => ({ order, rank: rank(order), tie: random() })).sort((a, b) => b.rank - a.rank || a.tie - b.tie);
  const flagged = keyed.slice(0, Math.round(shipped.length * share));
  const returned = shipped.filter((order) => order.returned).length;
  return returned === 0 ? 0 : flagged.filter((entry) => entry.order.returned).length / returned;
}

/** A random flag's share, averaged over `rounds` draws (its expectation is `share` itself). */
export function randomCaughtShare(orders: readonly ScoredOrder[], share: number, rounds = 200): number {
  let sum = 0;
  for (let round = 0; round < rounds; round += 1) {
    const random = randomOf(1_000 + round);
    sum += caughtShare(orders, () => random(), share, round);
  }
  return sum / rounds;
}
