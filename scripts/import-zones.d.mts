export interface LibLayer {
  name: string;
  /** Folders ("lib/rag/ask") or files at lib/'s root ("lib/errors.ts"). */
  members: string[];
}

export const libLayers: LibLayer[];
export const outerZones: { target: string; from: string[]; reason: string }[];
export const appSyntaxZone: { files: string[]; selectors: string[]; message: string };
export function restrictedPathZones(): { target: string | string[]; from: string | string[]; message: string }[];
