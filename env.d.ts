/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

declare module "@remix-run/server-runtime" {
  /** What server/http.ts passes to every loader and action. */
  interface AppLoadContext {
    /** The caller's address as the server saw it (for per-client limits). */
    clientAddress?: string;
  }
}

export {};
