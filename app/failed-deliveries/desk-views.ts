/** The desk's views, as its tabs show them: to decide, to hand off, handed off, all. Pure: the page imports it. */
export const DESK_VIEWS = ["decide", "handoff", "handed_off", "all"] as const;
export type DeskView = (typeof DESK_VIEWS)[number];
export const isDeskView = (value: string): value is DeskView => (DESK_VIEWS as readonly string[]).includes(value);
