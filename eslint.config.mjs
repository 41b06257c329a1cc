import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import { appSyntaxZone, restrictedPathZones } from "./scripts/import-zones.mjs";

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: ["lib/db/generated/**", ".next/**", ".data/**", ".test-data/**", "scratch/**", "playwright-report/**", "test-results/**", "next-env.d.ts"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Imports point down (scripts/import-zones.mjs): matched on the resolved file, so "@/lib/…"
      // and relative paths are caught alike.
      "import/no-restricted-paths": ["error", { zones: restrictedPathZones() }],
    },
  },
  {
    // app/ and components/ call lib/; the queries on the runtime's database are written there.
    files: appSyntaxZone.files,
    rules: { "no-restricted-syntax": ["error", ...appSyntaxZone.selectors.map((selector) => ({ selector, message: appSyntaxZone.message }))] },
  },
];

export default config;
