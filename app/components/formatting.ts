export { formatPaise, formatRupees } from "~/money";

export const formatKg = (kg: number) => `${kg.toLocaleString("en-IN", { maximumFractionDigits: 3 })} kg`;
export const formatDate = (iso: string, timeZone = "Asia/Kolkata") =>
  new Date(iso).toLocaleString("en-IN", { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
