import { readFileSync } from "node:fs";

/**
 * `tsx bench/tools/cpu-profile-summary.ts FILE.cpuprofile [N]`: where a V8 CPU profile (from BENCH_CPU_PROF=1)
 * spent its time — the top N functions by self time, and by total time (the function and what it called),
 * each with its file, so a bottleneck can be named without opening DevTools.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, count = "25"] = process.argv.slice(2);
if (!file) throw new Error("usage: tsx bench/tools/cpu-profile-summary.ts FILE.cpuprofile [N]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const name = (node: ProfileNode) => {
  const url = node.callFrame.url.replace(/^file:\/\//, "").replace(process.cwd() + "/", "");
  return `${node.callFrame.functionName || "(anonymous)"} ${url ? `${url}:${node.callFrame.lineNumber + 1}` : ""}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  all += delta;
  const node = byId.get(id)!;
  self.set(name(node), (self.get(name(node)) ?? 0) + delta);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const label = name(byId.get(at)!);
    if (seen.has(label)) continue;
    seen.add(label);
    total.set(label, (total.get(label) ?? 0) + delta);
  }
});
const idle = self.get("(idle)") ?? 0;
const show = (title: string, map: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [label, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, Number(count))) {
    console.log(`${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / (all - idle)).toFixed(1).padStart(5)} %  ${label}`);
  }
};
console.log(`${file}: ${(all / 1e6).toFixed(1)} s sampled, ${(idle / 1e6).toFixed(1)} s idle; percentages of the busy time`);
show("By self time", self);
show("By total time", total);
