import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

const CONFIG_VARIABLES = /^(NODE_ENV|PORT|DATABASE_|EMBEDDED_DATABASE_DIR|SHOPIFY_|SCOPES|SHOP_CUSTOM_DOMAIN|ENCRYPTION_KEY|COURIER_|SANDBOX_|WORKER_|VITEST|TEST)/;

export interface StartedServer {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
  /** Stops the whole process group and waits for it. */
  stop: () => Promise<void>;
}

/** `npm start` (or another npm script) as an operator runs it: the documented defaults plus what is given here. */
export function npmStart(env: Record<string, string>, script = "start"): StartedServer {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.test(name)));
  const child = spawn("npm", script === "start" ? ["start"] : ["run", script], { env: { ...clean, ...env } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    child,
    exited,
    output: () => output,
    async stop() {
      if (child.pid && child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {
          return;
        }
        await exited;
      }
    },
  };
}

export async function waitForOutput(pattern: RegExp, output: () => string, ms = 20_000): Promise<string> {
  for (let waited = 0; waited < ms; waited += 100) {
    if (pattern.test(output())) return output();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The server never printed ${pattern}:\n${output()}`);
}

// A first start creates the embedded PostgreSQL's cluster and migrates it: on a busy machine that takes a while.
export async function waitForHealth(port: number, output: () => string, ms = 60_000): Promise<Response> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; ) {
    try {
      return await fetch(`http://localhost:${port}/healthz`);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`The server did not come up:\n${output()}`);
}

/** The process listening on a local TCP port (the app itself, under npm and tsx). */
export function pidListeningOn(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set(
    [...readFileSync("/proc/net/tcp", "utf8").split("\n"), ...readFileSync("/proc/net/tcp6", "utf8").split("\n")]
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[1]?.endsWith(`:${hex}`) && fields[3] === "0A")
      .map((fields) => fields[9]),
  );
  const pids = execFileSync("ls", ["/proc"]).toString().split("\n").filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    try {
      const fds = execFileSync("ls", ["-l", `/proc/${pid}/fd`], { stdio: ["ignore", "pipe", "ignore"] }).toString();
      if ([...inodes].some((inode) => fds.includes(`socket:[${inode}]`))) return Number(pid);
    } catch {
      // A process that ended while we looked.
    }
  }
  throw new Error(`Nothing listens on port ${port}`);
}

/** A process's resident memory now and at its peak, in MB, from /proc. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}
