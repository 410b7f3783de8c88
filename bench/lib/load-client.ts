import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { GeneratorAnswer, LoadRun, LoadSummary } from "../load/generator";
import type { RequestKind } from "../load/requests";

export type { LoadSummary } from "../load/generator";

type Run = { [M in LoadRun["model"]]: Omit<Extract<LoadRun, { model: M }>, "target"> & { model: M } }[LoadRun["model"]];

/**
 * The parent's handle on the load generator process (bench/load/generator.ts). Request numbers continue per
 * kind of request across runs, so every webhook id and order id of the whole bench run is unique; `sent`
 * says which numbers a run used.
 */
export interface LoadGenerator {
  run(origin: string, request: RequestKind, run: Run): Promise<LoadSummary & { firstIndex: number }>;
  /** The next unused request number of this kind. */
  nextIndex(request: RequestKind): number;
  close(): Promise<void>;
}

const keyOf = (request: RequestKind) => ("prefix" in request ? `${request.kind}:${request.prefix}` : request.kind);

export async function startLoadGenerator(): Promise<LoadGenerator> {
  const child: ChildProcess = fork(path.resolve("bench/load/generator.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, { resolve: (summary: LoadSummary) => void; reject: (error: Error) => void }>();
  let exited = false;
  const ready = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`The load generator exited with ${code} before it was ready`)));
    child.on("message", (answer: GeneratorAnswer) => {
      if (answer.id === 0) return resolve();
      const waiting = pending.get(answer.id);
      pending.delete(answer.id);
      if (answer.summary) waiting?.resolve(answer.summary);
      else waiting?.reject(new Error(`The load generator failed: ${answer.error}`));
    });
  });
  child.on("exit", (code) => {
    exited = true;
    for (const waiting of pending.values()) waiting.reject(new Error(`The load generator exited with ${code}`));
    pending.clear();
  });
  await ready;

  const counters = new Map<string, number>();
  let ids = 0;
  return {
    nextIndex: (request) => counters.get(keyOf(request)) ?? 0,
    async run(origin, request, run) {
      if (exited) throw new Error("The load generator is not running");
      const firstIndex = counters.get(keyOf(request)) ?? 0;
      const id = ++ids;
      const summary = await new Promise<LoadSummary>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        child.send({ id, run: { ...run, target: { origin, request, firstIndex } } as LoadRun });
      });
      if (run.model !== "replay") counters.set(keyOf(request), firstIndex + summary.sent);
      return { ...summary, firstIndex };
    },
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await gone;
    },
  };
}
