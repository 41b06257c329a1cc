import "server-only";
import { askOperation } from "./ask";
import { characterizeObjectOperation } from "./characterize-object";
import { createImportOperation } from "./create-import";
import { embedGroupsOperation } from "./embed-groups";
import { getAgentContextOperation } from "./get-agent-context";
import { getImportOperation } from "./get-import";
import { listSectionsOperation } from "./list-sections";
import { readRecordOperation } from "./read-record";
import { retrieveOperation } from "./retrieve";
import { semanticSearchOperation } from "./semantic-search";
import { similarObjectsOperation } from "./similar-objects";
import { similarRecordsOperation } from "./similar-records";

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
  listSectionsOperation,
  createImportOperation,
  getImportOperation,
] as const;

export type AnyOperation = (typeof operations)[number];

/**
 * The operations MCP offers as tools: those a read scope allows. MCP stays read-only (its tools
 * say so in their annotations); write operations are HTTP only, for tokens that carry write.
 */
export const toolOperations: readonly ApiOperation[] = (operations as readonly unknown[] as readonly ApiOperation[]).filter((operation) => operation.scope === "read");

export function operationNamed(name: string): AnyOperation {
  const operation = operations.find((item) => item.name === name);
  if (!operation) throw new Error(`No API operation called ${name}`);
  return operation;
}
