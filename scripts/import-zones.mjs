/**
 * The import zones of the code, stated once: eslint.config.mjs turns them into
 * `import/no-restricted-paths` zones (`npm run lint`), scripts/deps.ts checks the folder graph of
 * lib/ against them (`npm run deps`), and docs/architecture.md ("Layers") prints them.
 *
 * lib/ is a stack of layers, bottom first. A module (a folder, or one of the few files at lib/'s
 * root) may import modules of its own layer and of the layers below it, never of a layer above.
 * Modules of one layer may import each other; `npm run deps` refuses a loop between them. A file
 * member's test (lib/errors.test.ts beside lib/errors.ts) is in its layer too.
 */
export const libLayers = [
  {
    name: "foundations",
    members: [
      "lib/config.ts",
      "lib/errors.ts",
      "lib/ids.ts",
      "lib/csv.ts",
      "lib/action-result.ts",
      "lib/storable-text.ts",
      "lib/text-pieces.ts",
      "lib/query-length.ts",
      "lib/format.ts",
      "lib/rate-limit.ts",
      "lib/deadline.ts",
      "lib/expiring-cache.ts",
      "lib/language",
    ],
  },
  { name: "database", members: ["lib/db"] },
  { name: "access", members: ["lib/acl"] },
  { name: "identity", members: ["lib/auth"] },
  { name: "archive", members: ["lib/archive"] },
  { name: "generation providers", members: ["lib/llm"] },
  { name: "rag: config, chunk, embed", members: ["lib/rag/config", "lib/rag/chunk", "lib/rag/embed"] },
  { name: "rag: index", members: ["lib/rag/index"] },
  { name: "rag: search", members: ["lib/rag/search"] },
  { name: "rag: ask, objects", members: ["lib/rag/ask", "lib/rag/objects"] },
  { name: "runtime", members: ["lib/runtime.ts"] },
  { name: "administration", members: ["lib/admin"] },
  { name: "http", members: ["lib/http"] },
  { name: "agent api", members: ["lib/api"] },
  { name: "process", members: ["lib/start-up.ts", "lib/health.ts", "lib/system-packages.ts"] },
];

/**
 * Outside lib/: the app's folders that nothing beneath them may import, and the database that
 * app/ and components/ reach only through lib/ (they parse, authorise and call a lib function,
 * passing it `runtime.database`; the Prisma client and its types stay in lib/).
 */
const databaseFolders = ["lib/db", "node_modules/@prisma", "node_modules/.prisma"];
const databaseReason = "reaches the database through a lib/ function, never lib/db or the Prisma client";
export const outerZones = [
  { target: "lib", from: ["app", "components"], reason: "lib/ never imports app/ or components/" },
  { target: "components", from: ["app"], reason: "components/ never imports app/" },
  { target: "app", from: databaseFolders, reason: `app/ ${databaseReason}` },
  { target: "components", from: databaseFolders, reason: `components/ ${databaseReason}` },
];

/**
 * What an import zone cannot see: a query written in app/ or components/ on the objects the
 * runtime hands them. `no-restricted-syntax` (eslint.config.mjs) refuses a member of a Prisma
 * client (`prisma.section…`, `runtime.database.prisma.$transaction…`) and a call of `query` or
 * `transaction` on an SQL executor named `sql` (`sql.query(…)`, `objects.sql.query(…)`).
 * Passing `runtime.database.prisma` or `sql` on to lib/ stays allowed. A client renamed first
 * (`const db = runtime.database.prisma`) is not caught; review catches that.
 */
export const appSyntaxZone = {
  files: ["app/**", "components/**"],
  selectors: [
    "MemberExpression[object.type='Identifier'][object.name='prisma']",
    "MemberExpression[object.type='MemberExpression'][object.property.name='prisma']",
    "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(query|transaction)$/][callee.object.type='Identifier'][callee.object.name='sql']",
    "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(query|transaction)$/][callee.object.type='MemberExpression'][callee.object.property.name='sql']",
  ],
  message: "app/ and components/ do not query the database: call a lib/ function and pass it runtime.database (docs/architecture.md, Layers).",
};

/** The zones of `import/no-restricted-paths`, paths relative to the repository root. */
export function restrictedPathZones() {
  const zones = outerZones.map((zone) => ({
    target: `./${zone.target}`,
    from: zone.from.map((folder) => `./${folder}`),
    message: `${zone.reason} (docs/architecture.md, Layers).`,
  }));
  const withTests = (member) => (member.endsWith(".ts") ? [member, member.replace(/\.ts$/, ".test.ts")] : [member]);
  // One zone per pair of layers, so a violation names both.
  libLayers.forEach((layer, index) => {
    for (const higher of libLayers.slice(index + 1)) {
      zones.push({
        target: layer.members.flatMap(withTests).map((member) => `./${member}`),
        from: higher.members.map((member) => `./${member}`),
        message: `The layer "${layer.name}" may not import the layer "${higher.name}" above it: imports point down (docs/architecture.md, Layers).`,
      });
    }
  });
  return zones;
}
