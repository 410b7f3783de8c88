/**
 * Which states a PIN code can be in, by its first two digits: India Post gives the first digit to a region and the
 * first two to a postal circle, which is a state or a few neighbours (Goa's PIN codes start 403, inside Maharashtra's
 * 40–44; Bihar and Jharkhand share 80–85). A circle that straddles states names each of them, so the check only says
 * "disagrees" when no state the digits can mean is the one the address names. Pure.
 */

const CIRCLES: Readonly<Record<string, readonly string[]>> = {
  "11": ["delhi"],
  "12": ["haryana"],
  "13": ["haryana", "punjab"],
  "14": ["punjab"],
  "15": ["punjab"],
  "16": ["punjab", "chandigarh", "haryana"],
  "17": ["himachal pradesh"],
  "18": ["jammu and kashmir"],
  "19": ["jammu and kashmir", "ladakh"],
  "20": ["uttar pradesh"],
  "21": ["uttar pradesh"],
  "22": ["uttar pradesh"],
  "23": ["uttar pradesh"],
  "24": ["uttar pradesh", "uttarakhand"],
  "25": ["uttar pradesh"],
  "26": ["uttar pradesh", "uttarakhand"],
  "27": ["uttar pradesh"],
  "28": ["uttar pradesh"],
  "30": ["rajasthan"],
  "31": ["rajasthan"],
  "32": ["rajasthan"],
  "33": ["rajasthan"],
  "34": ["rajasthan"],
  "36": ["gujarat"],
  "37": ["gujarat"],
  "38": ["gujarat"],
  "39": ["gujarat", "dadra and nagar haveli and daman and diu"],
  "40": ["maharashtra", "goa"],
  "41": ["maharashtra"],
  "42": ["maharashtra"],
  "43": ["maharashtra"],
  "44": ["maharashtra"],
  "45": ["madhya pradesh"],
  "46": ["madhya pradesh"],
  "47": ["madhya pradesh"],
  "48": ["madhya pradesh"],
  "49": ["chhattisgarh"],
  "50": ["telangana"],
  "51": ["andhra pradesh"],
  "52": ["andhra pradesh"],
  "53": ["andhra pradesh"],
  "56": ["karnataka"],
  "57": ["karnataka"],
  "58": ["karnataka"],
  "59": ["karnataka"],
  "60": ["tamil nadu", "puducherry"],
  "61": ["tamil nadu"],
  "62": ["tamil nadu"],
  "63": ["tamil nadu"],
  "64": ["tamil nadu"],
  "67": ["kerala"],
  "68": ["kerala", "lakshadweep"],
  "69": ["kerala"],
  "70": ["west bengal"],
  "71": ["west bengal"],
  "72": ["west bengal"],
  "73": ["west bengal", "sikkim"],
  "74": ["west bengal", "andaman and nicobar islands"],
  "75": ["odisha"],
  "76": ["odisha"],
  "77": ["odisha"],
  "78": ["assam"],
  "79": ["arunachal pradesh", "nagaland", "manipur", "mizoram", "tripura", "meghalaya", "assam"],
  "80": ["bihar"],
  "81": ["bihar", "jharkhand"],
  "82": ["bihar", "jharkhand"],
  "83": ["jharkhand"],
  "84": ["bihar"],
  "85": ["bihar", "jharkhand"],
};

/** Names the address may give a state by, beside its own (an old name, a short form). */
const OTHER_NAMES: Readonly<Record<string, string>> = {
  orissa: "odisha",
  pondicherry: "puducherry",
  "new delhi": "delhi",
  "nct of delhi": "delhi",
  "jammu & kashmir": "jammu and kashmir",
  "j&k": "jammu and kashmir",
  uttaranchal: "uttarakhand",
  "andaman & nicobar islands": "andaman and nicobar islands",
  "daman and diu": "dadra and nagar haveli and daman and diu",
  "dadra and nagar haveli": "dadra and nagar haveli and daman and diu",
};

/** A state as the address gives it, in the one spelling this table uses. */
export function stateKeyOf(state: string): string {
  const plain = state.trim().toLowerCase().replace(/\s+/g, " ");
  return OTHER_NAMES[plain] ?? plain;
}

/**
 * Whether a six-digit PIN code cannot be in the state the address names: false when they agree, and also when the
 * digits or the state are not known to this table (nothing is said about what cannot be checked).
 */
export function pincodeDisagreesWithState(pincode: string, state: string): boolean {
  if (!/^[1-9]\d{5}$/.test(pincode) || !state.trim()) return false;
  const states = CIRCLES[pincode.slice(0, 2)];
  if (!states) return false;
  const named = stateKeyOf(state);
  const known = Object.values(CIRCLES).some((each) => each.includes(named));
  return known && !states.includes(named);
}

/** The state (or states) a PIN code's first two digits point at, as written in this table; empty when unknown. */
export const statesOfPincode = (pincode: string): readonly string[] => CIRCLES[pincode.slice(0, 2)] ?? [];
