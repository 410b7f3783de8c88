import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "~/db.server";
import { receiveWebhook } from "~/webhooks.server";

export const action = async ({ request }: ActionFunctionArgs) =>
  receiveWebhook(request, async ({ shop }) => {
    // Sessions go at once; shipments and settings stay until shop/redact so a reinstall keeps them.
    await prisma.session.deleteMany({ where: { shop } });
  });
