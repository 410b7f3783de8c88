import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

// Configuration the bench's own environment must not leak into the processes it starts.
const CONFIG_VARIABLES = /^(NODE_ENV|PORT|STORE_PORT|DATABASE_|EMBEDDED_DATABASE_DIR|SHOPIFY_|SCOPES|SHOP_CUSTOM_DOMAIN|ENCRYPTION_KEY|COURIER_|SANDBOX_|WORKER_CONCURRENCY|NODE_OPTIONS)/;

export interface ChildServer {
  url: string;
  pid: number;
  output(): string;
  /** SIGTERM to the whole process group, as an operator stops `npm start`; waits for it to exit. */
  stop(): Promise<void>;
}

export interface StartOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Printed once the server is ready. */
  readyLine: RegExp;
  url: string;
  timeoutMs?: number;
}

/** Starts a server process in its own process group (so its children stop with it) and waits for its ready line. */
export async function startChild(options: StartOptions): Promise<ChildServer> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.test(name)));
  const child: ChildProcess = spawn(options.command, options.args, { env: { ...clean, ...options.env } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"], detached: true, cwd: path.resolve(".") });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.args.join(" ")} did not start in time:\n${output.slice(-3000)}`)), options.timeoutMs ?? 60_000);
    const check = () => {
      if (options.readyLine.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${options.args.join(" ")} exited with ${code}:\n${output.slice(-3000)}`));
    });
  });
  let stopping: Promise<void> | undefined;
  return {
    url: options.url,
    pid: child.pid!,
    output: () => output,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        process.kill(-child.pid!, "SIGTERM");
        const timer = setTimeout(() => {
          try {
            process.kill(-child.pid!, "SIGKILL");
          } catch {
            // Already gone.
          }
        }, 30_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
