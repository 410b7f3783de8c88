import { action as lifecycleAction } from "~/routes/flow.trigger-lifecycle";
import { action as flowAction } from "~/routes/flow.actions.$handle";
import { serveFetch } from "../../store/serve-fetch";
import { startShippingWorld } from "./store";
import { responseOf } from "./webhooks";

/** The app's Shopify Flow routes over HTTP, where the local store sends Flow's lifecycle callbacks and action runs. */
export function serveFlowRoutes() {
  return serveFetch((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/flow/trigger-lifecycle") return responseOf(() => lifecycleAction({ request, params: {}, context: {} }));
    const handle = /^\/flow\/actions\/([\w-]+)$/.exec(pathname)?.[1];
    if (handle) return responseOf(() => flowAction({ request, params: { handle }, context: {} }));
    return Promise.resolve(new Response("Not Found", { status: 404 }));
  });
}

/** A shipping world (the courier sandbox, a store) whose Flow reaches the app's Flow routes, the app installed. */
export async function startFlowWorld() {
  const app = await serveFlowRoutes();
  const world = await startShippingWorld({ appUrl: app.url });
  await world.store.install();
  return {
    ...world,
    app,
    async close() {
      await world.close();
      await app.close();
    },
  };
}
