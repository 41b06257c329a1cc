import "server-only";
import { askOperation } from "./ask";
import { attachMediaOperation } from "./attach-media";
import { characterizeObjectOperation } from "./characterize-object";
import { createImportOperation } from "./create-import";
import { createRecordOperation } from "./create-record";
import { embedGroupsOperation } from "./embed-groups";
import { getAgentContextOperation } from "./get-agent-context";
import { getImportOperation } from "./get-import";
import { linkRecordOperation, unlinkRecordOperation } from "./link-record";
import { listSectionsOperation } from "./list-sections";
import { proposeValueOperation } from "./propose-value";
import { readRecordOperation } from "./read-record";
import { readRecordHistoryOperation } from "./read-record-history";
import { retrieveOperation } from "./retrieve";
import { semanticSearchOperation } from "./semantic-search";
import { similarObjectsOperation } from "./similar-objects";
import { similarRecordsOperation } from "./similar-records";
import { updateRecordOperation } from "./update-record";

import type { ApiTokenScope } from "../../auth/api-token-limits";
import type { ApiOperation } from "./operation";

export type { ApiOperation, ApiRuntime, OperationContext } from "./operation";

/**
 * The agent API's operations, once, one file each (see operation.ts for what an operation is).
 * This order is the order of the OpenAPI document's paths and of the MCP tool list.
 */
export const operations = [
  semanticSearchOperation,
  retrieveOperation,
  getAgentContextOperation,
  similarRecordsOperation,
  similarObjectsOperation,
  characterizeObjectOperation,
  askOperation,
  embedGroupsOperation,
  readRecordOperation,
  readRecordHistoryOperation,
  listSectionsOperation,
  createImportOperation,
  getImportOperation,
  createRecordOperation,
  updateRecordOperation,
  linkRecordOperation,
  unlinkRecordOperation,
  attachMediaOperation,
  proposeValueOperation,
] as const;

export type AnyOperation = (typeof operations)[number];

/**
 * The operations MCP may offer as tools: the read operations to every token; the write operations
 * (records, links, media, proposals) only to a token with the write scope, and only when the
 * server turns them on (MNEMO_MCP_ALLOW_WRITE). Imports stay HTTP only: a file does not belong in
 * a tool call. A tool that is not listed cannot be called either.
 */
const httpOnly = new Set(["create_import", "get_import"]);
const allOperations = operations as readonly unknown[] as readonly ApiOperation[];

export function toolOperationsFor(options: { scopes: readonly ApiTokenScope[]; allowWrite: boolean }): readonly ApiOperation[] {
  return allOperations.filter((operation) => {
    if (httpOnly.has(operation.name)) return false;
    if (operation.scope === "read") return true;
    return options.allowWrite && options.scopes.includes(operation.scope);
  });
}

/** Every operation that can be an MCP tool for some token and configuration. */
export const toolOperations: readonly ApiOperation[] = toolOperationsFor({ scopes: ["read", "write"], allowWrite: true });

export function operationNamed(name: string): AnyOperation {
  const operation = operations.find((item) => item.name === name);
  if (!operation) throw new Error(`No API operation called ${name}`);
  return operation;
}
