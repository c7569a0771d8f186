// `npm run openapi:write` regenerates the committed API description from the routes' declarations:
// openapi/openapi.json and the client package's types (packages/client/src/schema.ts).
// `npm run openapi:check` (part of `npm test`) fails when either differs from what the code generates,
// or when the client's version is not the API's: a change to the API is then a deliberate, reviewed one.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { format, resolveConfig } from "prettier";
import { API_VERSION, openApiDocument } from "../src/api/contract/document.ts";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const DOCUMENT = "openapi/openapi.json";
const TYPES = "packages/client/src/schema.ts";
const CLIENT_PACKAGE = "packages/client/package.json";

async function generated(): Promise<Record<string, string>> {
  const document = openApiDocument();
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
  const types =
    "// Generated from openapi/openapi.json by `npm run openapi:write`: do not edit.\n" + astToString(ast);
  // Formatted as the repository's prettier config has it, so `format:check` passes on them too.
  const formatted = async (path: string, text: string): Promise<string> => {
    const filepath = join(root, path);
    return format(text, { ...(await resolveConfig(filepath)), filepath });
  };
  return {
    [DOCUMENT]: await formatted(DOCUMENT, JSON.stringify(document)),
    [TYPES]: await formatted(TYPES, types),
  };
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return undefined;
  }
};

const mode = process.argv[2];
if (mode !== "write" && mode !== "check") {
  console.error("usage: tsx scripts/openapi.ts write|check");
  process.exit(64);
}
const files = await generated();
if (mode === "write") {
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  console.log(`wrote ${Object.keys(files).join(" and ")} (API ${API_VERSION})`);
} else {
  const stale = Object.entries(files)
    .filter(([path, text]) => read(path) !== text)
    .map(([path]) => path);
  const clientVersion = (JSON.parse(read(CLIENT_PACKAGE) ?? "{}") as { version?: string }).version;
  if (clientVersion !== API_VERSION)
    console.error(`${CLIENT_PACKAGE}: version ${clientVersion} is not the API's (${API_VERSION})`);
  if (stale.length > 0)
    console.error(
      `The API changed: ${stale.join(" and ")} ${stale.length === 1 ? "differs" : "differ"} from what the routes declare.\n` +
        "If the change is meant, run `npm run openapi:write`, bump API_VERSION (src/api/contract/document.ts) " +
        "and the client's version as the change requires, and commit the result.",
    );
  if (stale.length > 0 || clientVersion !== API_VERSION) process.exit(1);
  console.log(`openapi: ${DOCUMENT} and ${TYPES} match the routes (API ${API_VERSION})`);
}
