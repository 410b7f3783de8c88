import { json, type LoaderFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { trackingLagAcrossShops } from "~/tracking/tracking-lag.server";

/**
 * 200 when the database answers: what a load balancer polls, one statement. With `?detail=tracking`, for operators,
 * how far tracking is behind across every shop (shops with overdue parcels, how many parcels, the oldest's wait in
 * seconds): a figure that keeps growing means the workers or the couriers' limits are not keeping up. No shop is named.
 */
interface Health {
  status: "ok" | "unavailable";
  database: "reachable" | "unreachable";
  tracking?: Awaited<ReturnType<typeof trackingLagAcrossShops>>;
}

export const loader = async ({ request }: Pick<LoaderFunctionArgs, "request">) => {
  try {
    await prisma.$queryRaw`SELECT 1`;
  } catch {
    return json<Health>({ status: "unavailable", database: "unreachable" }, { status: 503 });
  }
  if (new URL(request.url).searchParams.get("detail") !== "tracking") return json<Health>({ status: "ok", database: "reachable" });
  return json<Health>({ status: "ok", database: "reachable", tracking: await trackingLagAcrossShops(new Date()) });
};
