/** The label layouts a shop chooses between in Settings; shared by the settings screen and the renderer. */
export const LABEL_LAYOUTS = {
  /** One 4 × 6 in label a page: the thermal size most Indian merchants print on (the default). */
  THERMAL_4X6: "thermal_4x6",
  /** Four labels to an A4 sheet, for an office printer. */
  A4_FOUR_UP: "a4_four_up",
} as const;

export type LabelLayout = (typeof LABEL_LAYOUTS)[keyof typeof LABEL_LAYOUTS];

export function isLabelLayout(value: unknown): value is LabelLayout {
  return value === LABEL_LAYOUTS.THERMAL_4X6 || value === LABEL_LAYOUTS.A4_FOUR_UP;
}

/** The most shipments one document takes: a day's pickup at a busy shop, and a bound on one request's work. */
export const MAX_SHIPMENTS_PER_DOCUMENT = 500;
