import "server-only";
import { getConfig } from "../../config";
import { createClipHttpEmbedder } from "./clip-http-embedder";
import { createDescriptorEmbedder } from "./descriptor-embedder";
import { imageEmbedderConfigFromEnv, type ImageEmbedder } from "./image-embedder";

/**
 * The image spaces objects are indexed into: always the offline descriptor (visual similarity
 * and proposals use it, for every section), plus a CLIP-style endpoint when MNEMO_IMAGE_EMBEDDER
 * is `clip-http` (text→image search; only images of sections allowed to egress are sent).
 */
export function createImageEmbedders(env: Record<string, string | undefined> = getConfig().environment): {
  descriptor: ImageEmbedder;
  multimodal: ImageEmbedder | null;
  all: ImageEmbedder[];
} {
  const descriptor = createDescriptorEmbedder();
  const config = imageEmbedderConfigFromEnv(env);
  const multimodal = config.kind === "clip-http" ? createClipHttpEmbedder(config) : null;
  return { descriptor, multimodal, all: multimodal ? [descriptor, multimodal] : [descriptor] };
}
