import { fromPaise } from "~/money";

const INR = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", maximumFractionDigits: 2 });

export const formatRupees = (amount: number) => INR.format(amount);
export const formatPaise = (paise: number) => INR.format(fromPaise(paise));
export const formatKg = (kg: number) => `${kg.toLocaleString("en-IN", { maximumFractionDigits: 3 })} kg`;
export const formatDate = (iso: string, timeZone = "Asia/Kolkata") =>
  new Date(iso).toLocaleString("en-IN", { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
