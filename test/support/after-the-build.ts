import { productionBuild } from "./production-build";

/**
 * Under `npm test` the production build runs beside the first tests, and on a slow machine it takes about a minute. A
 * process or browser file starts once it is over, so the deadlines of its set-up hooks time the file's own start (a
 * demo, a browser, `npm start`) and not the build. Run on their own, the files take the checkout's build, as before.
 */
if (process.env.DAKIYA_BUILD_DONE_FILE) await productionBuild();
