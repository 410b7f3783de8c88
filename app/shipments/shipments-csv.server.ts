import { DELIVERY_STAGES } from "~/shipments/delivery-stage";
import { shipmentStatusLabel } from "~/shipments/lifecycle";
import { csvField } from "~/csv";
import { outcomeInWords } from "~/shipments/outcome-words";
import { fromPaise } from "~/money";
import { eachShipment, type ListedShipment, type ShipmentFilter } from "./shipments.server";

const COLUMNS = ["Order", "Booked", "Shopper", "Courier", "AWB", "Payment", "COD amount (₹)", "Charges (₹)", "Stage", "Booking", "Courier outcome", "Delivery attempts", "Courier status", "Courier status at", "Delivered"] as const;

const timeIn = (timeZone: string) => {
  const format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return (date: Date | null) => (date ? format.format(date).replace(",", "") : "");
};

function line(shipment: ListedShipment, time: (date: Date | null) => string): string {
  const rupees = (paise: number | null) => (paise === null ? "" : fromPaise(paise).toFixed(2));
  return [
    shipment.orderName,
    time(shipment.createdAt),
    shipment.shopperName,
    shipment.courierName ?? "",
    shipment.awb ?? "",
    shipment.paymentMode === "cod" ? "COD" : "Prepaid",
    rupees(shipment.codAmountPaise),
    rupees(shipment.totalChargesPaise),
    DELIVERY_STAGES[shipment.stage].label,
    shipmentStatusLabel(shipment.status).label,
    // Where the courier has it, once it has said anything.
    shipment.courierStatusCode === null ? "" : outcomeInWords({ outcome: shipment.outcome, deliveryAttempts: 0 }),
    String(shipment.deliveryAttempts),
    shipment.courierStatusLabel ?? "",
    time(shipment.courierStatusAt),
    time(shipment.deliveredAt),
  ]
    .map(csvField)
    .join(",");
}

/**
 * The filtered list as CSV, streamed: rows are read a batch at a time and written as the reader takes them, so an
 * export of any size holds one batch in memory. Times are in the shop's time zone.
 */
export function shipmentsCsv(shop: string, filter: ShipmentFilter, timeZone: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const time = timeIn(timeZone);
  const rows = eachShipment(shop, filter, { timeZone });
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        // The byte-order mark tells spreadsheets the file is UTF-8 (₹ and shoppers' names).
        controller.enqueue(encoder.encode(`\uFEFF${COLUMNS.join(",")}\r\n`));
        return;
      }
      const lines: string[] = [];
      for (let index = 0; index < 200; index++) {
        const next = await rows.next();
        if (next.done) {
          if (lines.length) controller.enqueue(encoder.encode(lines.join("")));
          controller.close();
          return;
        }
        lines.push(`${line(next.value, time)}\r\n`);
      }
      controller.enqueue(encoder.encode(lines.join("")));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
}
