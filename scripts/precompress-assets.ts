/**
 * `npm run build`'s last step for the app's browser assets: each script and stylesheet under public/build is written
 * beside itself compressed at the strongest levels (`.br`, `.gz`), which the server sends as they are.
 */
import path from "node:path";
import { precompressDirectory, staticContentType } from "../server/compression";

const directory = path.resolve("public/build");
const { files, bytes, brotliBytes } = await precompressDirectory(directory, staticContentType);
const kilobytes = (count: number) => `${Math.round(count / 1024).toLocaleString("en-IN")} KB`;
console.log(`Compressed ${files} browser assets ahead of time: ${kilobytes(bytes)} → ${kilobytes(brotliBytes)} with brotli.`);
