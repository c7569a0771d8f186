// The Lua include mechanism (lua-script.ts): a script names a shared piece of Lua with
// `-- @include <path under src/>` and LuaScript splices it in at load time, as BullMQ's own commands do;
// the persist script takes BullMQ's job write from the adapter folder that way.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LuaScript, spliceIncludes } from "../../src/store/lua-script.ts";

const files: Record<string, string> = {
  "a/one.lua": "local function one() return 1 end\n-- @include a/two.lua\n",
  "a/two.lua": "local function two() return 2 end\n",
  "a/loop.lua": "-- @include a/back.lua\n",
  "a/back.lua": "-- @include a/loop.lua\n",
};
const read = (path: string): string => {
  const text = files[path];
  if (text === undefined) throw new Error(`no file ${path}`);
  return text;
};

describe("lua includes", () => {
  it("splices included files in place, nested ones too, each once", () => {
    const out = spliceIncludes("-- @include a/one.lua\n-- @include a/two.lua\nreturn one() + two()\n", read);
    expect(out).toBe(
      "local function one() return 1 end\nlocal function two() return 2 end\n" +
        "-- (a/two.lua included above)\nreturn one() + two()\n",
    );
  });

  it("refuses a path outside src/, a cycle and a missing file", () => {
    expect(() => spliceIncludes("-- @include ../etc/x.lua\n", read)).toThrow(/not a \.lua path under src/);
    expect(() => spliceIncludes("-- @include a/loop.lua\n", read)).toThrow(
      "lua include cycle: a/loop.lua -> a/back.lua -> a/loop.lua",
    );
    expect(() => spliceIncludes("-- @include a/none.lua\n", read)).toThrow("no file a/none.lua");
  });

  it("gives the persist script BullMQ's job write from the adapter folder", () => {
    const script = new LuaScript("persist-hooks-n.lua", "n");
    const source = (script as unknown as { source: string }).source;
    const include = readFileSync(
      new URL("../../src/queue/bullmq/add-standard-job.lua", import.meta.url),
      "utf8",
    );
    expect(source).toContain(include.trimEnd());
    expect(source).not.toMatch(/^-- @include/m);
  });
});
