import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * CPU time used by processes, from /proc (Linux): the figure that stays meaningful when other work shares the
 * machine, because it counts what a request costs rather than how long it waited for a core.
 */
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench runs on

/** User + system CPU of a process in milliseconds, or 0 when it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The postmaster of a data directory and its backends, walkers and writers. */
export function postgresPids(dataDir: string): number[] {
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === postmaster) children.push(Number(entry));
    } catch {
      // Exited while we looked.
    }
  }
  return [postmaster, ...children];
}

/** CPU of the app server and (when the bench started it) PostgreSQL; backends that exit between samples are missed. */
export interface CpuSample {
  node: number;
  postgres: number | null;
}

export function sampleCpu(appPid: number, dataDir: string | null): CpuSample {
  return { node: cpuMsOf(appPid), postgres: dataDir ? postgresPids(dataDir).reduce((sum, pid) => sum + cpuMsOf(pid), 0) : null };
}

/** CPU the whole machine has used and had, all cores together (ms, from /proc/stat): what other work took meanwhile is the difference from ours. */
export function machineCpuMs(): { busy: number; total: number } {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    const toMs = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    return { busy: toMs(user + nice + system + irq + softirq + steal), total: toMs(user + nice + system + idle + iowait + irq + softirq + steal) };
  } catch {
    return { busy: 0, total: 0 };
  }
}
