#!/usr/bin/env node
// A Prisma generator that writes the schema's DMMF datamodel (models, fields, enums, indexes,
// database names) to JSON, so the drift test can compare schema.prisma with the database the
// SQL migrations produce, without Prisma's native schema engine (unavailable offline).
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import generatorHelper from "@prisma/generator-helper";

generatorHelper.generatorHandler({
  onManifest: () => ({ prettyName: "Mnemo schema model", defaultOutput: "../lib/db/generated/schema-model.json" }),
  onGenerate: async (options) => {
    const output = options.generator.output?.value;
    if (!output) throw new Error("schema-model generator needs an output path");
    mkdirSync(dirname(output), { recursive: true });
    writeFileSync(output, JSON.stringify(options.dmmf.datamodel, null, 2));
  },
});
