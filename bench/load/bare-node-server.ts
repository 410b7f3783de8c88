import { createServer } from "node:http";

/**
 * Node's HTTP server alone, answering "ok": the floor under the app's bare route. The difference between the
 * two is what server/http.ts (Request and Headers objects, body limits) and Remix (route matching, the
 * resource route) cost per request. Prints its port and runs until stopped.
 */
const server = createServer((_request, response) => {
  response.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": "2", "Cache-Control": "no-store" });
  response.end("ok");
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(`bare node server on ${typeof address === "object" && address ? address.port : 0}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
