import type { BenchContext } from "../lib/context";
import type { Section } from "../lib/results";

/**
 * One measurement of `npm run bench`: a module under bench/measurements/ exporting one of these, listed in
 * bench/measurements/index.ts. `run` gets the shared context (database, app server, load generator, floors) and
 * returns its section of the report; it must be bounded in time and count and send traffic to loopback only.
 */
export interface Measurement {
  /** Used by `npm run bench -- --only id,id`. */
  id: string;
  title: string;
  run(context: BenchContext): Promise<Section>;
}
