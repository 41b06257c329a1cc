export { CHUNKER_VERSION, chunkDocument, type DocumentChunk } from "./chunk-document";
export { countTokens } from "./count-tokens";
export { splitSentences, type TextRange } from "./split-sentences";
export { CHUNKING_MODES, validateChunkOptions, type ChunkingMode, type ChunkOptions } from "./validate-chunk-options";
