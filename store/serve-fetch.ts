import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type FetchHandler = (request: Request) => Promise<Response> | Response;

export interface RunningServer {
  url: string;
  close: () => Promise<void>;
}

/** Node's parsed headers as fetch's: a repeated header (Set-Cookie) stays one entry each. */
export function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) value.forEach((item) => headers.append(name, item));
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

function toRequest(incoming: IncomingMessage, origin: string): Request {
  const headers = headersOf(incoming.headers);
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function send(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") outgoing.setHeader(name, value);
  });
  // Each cookie is a header of its own: joined into one, the browser would keep only the first.
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) outgoing.setHeader("set-cookie", cookies);
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

/** Serves a fetch-style handler on a real loopback port. */
export async function serveFetch(handler: FetchHandler, port = 0): Promise<RunningServer> {
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? "127.0.0.1"}`;
    Promise.resolve()
      .then(() => handler(toRequest(incoming, origin)))
      .then((response) => send(response, outgoing))
      .catch((error) => {
        console.error(error);
        outgoing.statusCode = 500;
        outgoing.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
