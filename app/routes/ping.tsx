/**
 * Liveness: 200 "ok" whenever the process can answer HTTP, without touching the database — a load balancer's
 * or orchestrator's probe that must not fail (and restart the process) just because PostgreSQL is slow.
 * Readiness, which does check the database, is /healthz. The benchmark also uses it as the bare route: the
 * cost of the HTTP server and Remix alone, beside which every other route's throughput is read.
 */
export const loader = () =>
  new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
