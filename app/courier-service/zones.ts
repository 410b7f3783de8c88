/**
 * Delivery zones from a pickup and a delivery PIN code, the way Indian aggregators band them.
 * India Post PIN codes encode geography: the first two digits name the postal circle (a state or
 * group of states), the first three the sorting district, which for a metro is the city itself.
 */
export const ZONES = ["A", "B", "C", "D", "E"] as const;
export type Zone = (typeof ZONES)[number];

export const ZONE_NAMES: Record<Zone, string> = {
  A: "Within city",
  B: "Within state or region",
  C: "Metro to metro",
  D: "Rest of India",
  E: "Special areas (North-East, J&K, Ladakh, islands)",
};

/** Sorting districts of the eight metros an aggregator prices as one band. */
const METRO_DISTRICTS: Record<string, string> = {
  "110": "Delhi",
  "400": "Mumbai",
  "700": "Kolkata",
  "600": "Chennai",
  "560": "Bengaluru",
  "500": "Hyderabad",
  "411": "Pune",
  "380": "Ahmedabad",
};

/** Postal circles by the first two PIN digits: a state, or states an aggregator bands together. */
const REGION_RANGES: [from: number, to: number, region: string][] = [
  [11, 11, "Delhi"],
  [12, 13, "Haryana"],
  [14, 16, "Punjab and Chandigarh"],
  [17, 17, "Himachal Pradesh"],
  [18, 19, "Jammu, Kashmir and Ladakh"],
  [20, 28, "Uttar Pradesh and Uttarakhand"],
  [30, 34, "Rajasthan"],
  [36, 39, "Gujarat"],
  [40, 44, "Maharashtra and Goa"],
  [45, 49, "Madhya Pradesh and Chhattisgarh"],
  [50, 53, "Telangana and Andhra Pradesh"],
  [56, 59, "Karnataka"],
  [60, 64, "Tamil Nadu"],
  [67, 69, "Kerala"],
  [70, 74, "West Bengal and Sikkim"],
  [75, 77, "Odisha"],
  [78, 79, "North-East"],
  [80, 85, "Bihar and Jharkhand"],
];

export function regionOf(pincode: number): string | undefined {
  const circle = Math.floor(pincode / 10_000);
  return REGION_RANGES.find(([from, to]) => circle >= from && circle <= to)?.[2];
}

/** North-East (78–79), Sikkim (737), J&K and Ladakh (18–19), Andaman & Nicobar (744), Lakshadweep (6825). */
export function isSpecialArea(pincode: number): boolean {
  const digits = String(pincode);
  return /^(78|79|18|19)/.test(digits) || /^(737|744)/.test(digits) || digits.startsWith("6825");
}

/** Army Postal Service codes (9xxxxx) are not served by commercial couriers. */
export function isServiceablePincode(pincode: number): boolean {
  return /^[1-8]\d{5}$/.test(String(pincode));
}

export function metroOf(pincode: number): string | undefined {
  return METRO_DISTRICTS[String(pincode).slice(0, 3)];
}

export function zoneBetween(pickup: number, delivery: number): Zone {
  const from = String(pickup);
  const to = String(delivery);
  if (isSpecialArea(pickup) || isSpecialArea(delivery)) return "E";
  if (from.slice(0, 3) === to.slice(0, 3)) return "A";
  const region = regionOf(pickup);
  if (region !== undefined && region === regionOf(delivery)) return "B";
  if (metroOf(pickup) && metroOf(delivery)) return "C";
  return "D";
}
