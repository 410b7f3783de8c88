import { json } from "@remix-run/node";
import prisma from "~/db.server";

export const loader = async () => {
  try {
    await prisma.$queryRaw`SELECT 1`;
    return json({ status: "ok", database: "reachable" });
  } catch {
    return json({ status: "unavailable", database: "unreachable" }, { status: 503 });
  }
};
