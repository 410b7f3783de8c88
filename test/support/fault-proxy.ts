import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to a request instead of passing it on; null passes it on. */
export type Fault = { status: number; body: string; contentType: string } | null;

/**
 * A real HTTP proxy in front of a courier service, listening where the app expects the courier: each request is
 * passed on byte for byte unless the current `fault` rule answers it instead (a 503 for one awb, a 401 for every
 * key, a maintenance page), as a load balancer or a failing aggregator would.
 */
export async function startFaultProxy({ port, upstream }: { port: number; upstream: string }) {
  let rule: (request: { method: string; path: string }) => Fault = () => null;
  let passed = 0;
  let faulted = 0;
  let inFlight = 0;
  let mostAtOnce = 0;
  const target = new URL(upstream);
  const server = http.createServer((request, response) => {
    const fault = rule({ method: request.method ?? "GET", path: request.url ?? "/" });
    if (fault) {
      faulted += 1;
      request.resume();
      response.writeHead(fault.status, { "Content-Type": fault.contentType, "Content-Length": Buffer.byteLength(fault.body) });
      response.end(fault.body);
      return;
    }
    passed += 1;
    inFlight += 1;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    response.once("close", () => (inFlight -= 1));
    const forwarded = http.request({ hostname: target.hostname, port: target.port, method: request.method, path: request.url, headers: { ...request.headers, host: target.host } }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on("error", () => {
      response.writeHead(502, { "Content-Type": "text/plain" });
      response.end("upstream unreachable");
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Sets the rule every later request meets. */
    set(next: (request: { method: string; path: string }) => Fault) {
      rule = next;
    },
    heal() {
      rule = () => null;
    },
    get passed() {
      return passed;
    },
    /** The most requests passed on that were in flight at once since the last `countAfresh`. */
    get mostAtOnce() {
      return mostAtOnce;
    },
    countAfresh() {
      mostAtOnce = inFlight;
    },
    get faulted() {
      return faulted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const jsonFault = (status: number, message: string): Fault => ({ status, body: JSON.stringify({ success: false, message, errors: [] }), contentType: "application/json" });
export const htmlFault = (status: number): Fault => ({ status, body: "<!doctype html><html><body><h1>We'll be back soon</h1></body></html>", contentType: "text/html" });
