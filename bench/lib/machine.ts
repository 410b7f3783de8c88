import { execFileSync } from "node:child_process";
import os from "node:os";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  /** Settings of the benchmarked database that decide commit cost: fsync, synchronous_commit, …. */
  databaseSettings: string;
  /** Where the database keeps its files, and on what kind of file system (an fsync on tmpfs costs nothing). */
  databaseStorage: string;
  load: string;
}

/** The CPU model as the kernel names it (os.cpus() can be a bare vendor name on virtual machines). */
function cpuModel(): string {
  const fromNode = os.cpus()[0]?.model?.trim() ?? "unknown";
  try {
    const lscpu = execFileSync("lscpu", [], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    const model = /^Model name:\s*(.+)$/m.exec(lscpu)?.[1]?.trim();
    const hypervisor = /^Hypervisor vendor:\s*(.+)$/m.exec(lscpu)?.[1]?.trim();
    return `${model ?? fromNode}${hypervisor ? ` (virtual machine, ${hypervisor})` : ""}`;
  } catch {
    return fromNode;
  }
}

export function fileSystemOf(dir: string): string {
  try {
    return execFileSync("df", ["--output=fstype", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().split("\n").pop() ?? "unknown";
  } catch {
    return "unknown";
  }
}

export function describeMachine(database: { version: string; settings: string; storage: string }): Machine {
  return {
    cpu: cpuModel(),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    postgres: database.version,
    databaseSettings: database.settings,
    databaseStorage: database.storage,
    load: os.loadavg().map((value) => value.toFixed(2)).join(", "),
  };
}
