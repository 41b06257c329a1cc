import "server-only";
import { EmbeddingError } from "./embedder";
import { COMBINED_DIMENSION, describeImage } from "./image-descriptor";
import type { ImageEmbedder } from "./image-embedder";

/**
 * The offline image space: the combined pixel descriptor (colour without background, gradient
 * orientations, perceptual hash), chosen by `npm run eval:image-descriptors`. Nothing leaves the
 * host, so every section's images are described.
 */
export const DESCRIPTOR_MODEL = "combined-v1";

export function createDescriptorEmbedder(): ImageEmbedder {
  return {
    provider: "descriptor",
    model: DESCRIPTOR_MODEL,
    dimension: COMBINED_DIMENSION,
    external: false,
    async embedImages(images) {
      const vectors: Float32Array[] = [];
      for (const [index, image] of images.entries()) {
        try {
          vectors.push(await describeImage(image.bytes, "combined"));
        } catch (error) {
          throw new EmbeddingError(`Image ${index} could not be decoded: ${error instanceof Error ? error.message : String(error)}`, {
            retryable: false,
            cause: error,
          });
        }
      }
      return vectors;
    },
  };
}

/** The name of an image embedder's space in object_vectors.space. */
export function imageSpaceName(embedder: Pick<ImageEmbedder, "provider" | "model" | "dimension">): string {
  return `${embedder.provider}/${embedder.model}/${embedder.dimension}`;
}

/** The context vectors' space: the text index space they were embedded in. */
export function contextSpaceName(textSpaceId: string): string {
  return `text:${textSpaceId}`;
}
