import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entrySources, listExtensions, readExtensionConfig, shouldRenderTarget } from "./build-extensions";

const configOf = (directory: string) =>
  readExtensionConfig(readFileSync(`${directory}/shopify.extension.toml`, "utf8"));

describe("building the admin extensions", () => {
  it("finds the five extensions", () => {
    expect(listExtensions()).toEqual([
      "extensions/dakiya-print-label",
      "extensions/dakiya-print-labels",
      "extensions/dakiya-shipment-block",
      "extensions/ship-selected-with-dakiya",
      "extensions/ship-with-dakiya",
    ]);
  });

  it("registers the action and, in a bundle of its own, its should-render condition, as the CLI does", () => {
    const config = configOf("extensions/ship-with-dakiya");
    expect(config).toEqual({
      handle: "ship-with-dakiya",
      targets: [
        {
          target: "admin.order-details.action.render",
          module: "./src/action.tsx",
          shouldRenderModule: "./src/should-render.ts",
        },
      ],
    });
    expect(entrySources(config)).toEqual([
      {
        file: "ship-with-dakiya.js",
        source:
          "import Target_0 from './src/action.tsx';shopify.extend('admin.order-details.action.render', (...args) => Target_0(...args));",
      },
      {
        file: "ship-with-dakiya-conditions.js",
        source:
          "import shouldRender from './src/should-render.ts';shopify.extend('admin.order-details.action.should-render', (...args) => shouldRender(...args));",
      },
    ]);
  });

  it("builds one bundle for an extension without a condition", () => {
    const config = configOf("extensions/ship-selected-with-dakiya");
    expect(entrySources(config).map((entry) => entry.file)).toEqual(["ship-selected-with-dakiya.js"]);
    expect(entrySources(config)[0]!.source).toContain("shopify.extend('admin.order-index.selection-action.render'");
  });

  it("refuses a toml without a handle or a targeting module", () => {
    expect(() => readExtensionConfig('[[extensions]]\nname = "x"\n')).toThrow("no handle");
    expect(() => readExtensionConfig('[[extensions]]\nhandle = "x"\n[[extensions.targeting]]\ntarget = "admin.x.render"\n')).toThrow(
      "needs a target and a module",
    );
  });

  it("names should-render targets the CLI's way", () => {
    expect(shouldRenderTarget("admin.order-index.selection-action.render")).toBe(
      "admin.order-index.selection-action.should-render",
    );
  });
});
