import { readdirSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Principal, publicReader, systemPrincipal } from "../../lib/acl";
import { tileScaleFactors } from "../../lib/archive/iiif/image-request";
import { createRenditionCache, renditionsPerImage } from "../../lib/archive/iiif/rendition-cache";
import { createImageService, imageInfoResponse, imageResponse } from "../../lib/archive/iiif/serve-image";
import { storeMedia } from "../../lib/archive/media-storage";
import { publicProjectIds } from "../../lib/archive/public-projects";
import { saveRecord } from "../../lib/archive/save-record";
import { parseConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { errorResponse } from "../../lib/http/error-response";
import { appErrorOf } from "../support/app-error-of";
import { addMember, coinFields, createProject, createSection, createUser, principalOf, temporaryStorageDir } from "../support/factories";
import { openTestDatabase, testDatabaseMode } from "../support/test-database";

/**
 * The Image API for a large scan (2071×1562): info.json advertises 512 px tiles at the scale
 * factors a viewer needs, every tile a viewer asks is rendered at its size and kept in the cache;
 * a valid request for what is not rendered (rotation, mirroring, bitonal, tif/gif/jp2/pdf) is a
 * 501 after access (an image one may not read is the missing image's 404), a malformed one a 400.
 */
const origin = "https://archive.example";
const missingId = "00000000-0000-4000-8000-000000000000";
const scanSize = { width: 2071, height: 1562 };

let db: Database;
let storageDir: string;
let reader: Principal;
let anonymous: Principal;
let imageId = "";
const service = createImageService(parseConfig({ MNEMO_IIIF_ANONYMOUS_RENDERS_PER_MINUTE: "100000" }));

const ask = (principal: Principal, id: string, region: string, size: string, rotation = "0", quality = "default.jpg") =>
  imageResponse(db.prisma, principal, {
    imageId: id,
    storageDir,
    region,
    size,
    rotation,
    quality,
    service,
    clientAddress: "192.0.2.7",
    serviceId: `${origin}/iiif/image/${id}`,
  });

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  const project = await createProject(db.prisma);
  const section = await createSection(db.prisma, coinFields);
  // Noise, so that tiles of different places differ and a misplaced region would show.
  const noise = Buffer.from(Array.from({ length: 64 * 48 * 3 }, (_, index) => (index * 97) % 256));
  const bytes = await sharp(noise, { raw: { width: 64, height: 48, channels: 3 } })
    .resize(scanSize.width, scanSize.height, { kernel: "nearest" })
    .jpeg()
    .toBuffer();
  const stored = await storeMedia(db.prisma, systemPrincipal, {
    projectId: project.id,
    file: { name: "ledger.jpg", bytes: new Uint8Array(bytes) },
    expectedKind: "image",
    storageDir,
    maxBytes: 20 * 1024 * 1024,
  });
  imageId = stored.id;
  await saveRecord(db.prisma, systemPrincipal, { sectionSlug: section.slug, projectId: project.id, values: { title: "Ledger of the mill", obverse: imageId } });
  const user = await createUser(db.prisma);
  await addMember(db.prisma, user.id, project.id);
  reader = await principalOf(db.prisma, user.id);
  anonymous = publicReader(await publicProjectIds(db.prisma));
});

afterAll(async () => {
  await db.close();
});

describe(`IIIF image tiles and 501s (${testDatabaseMode()})`, () => {
  it("advertises 512 px tiles with the scale factors down to one tile for the whole scan", async () => {
    const info = (await (await imageInfoResponse(db.prisma, reader, { imageId, storageDir, serviceId: `${origin}/iiif/image/${imageId}` })).json()) as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({ width: 2071, height: 1562, tiles: [{ width: 512, scaleFactors: [1, 2, 4, 8] }], extraFormats: ["png", "webp"] });
    expect(tileScaleFactors(scanSize)).toEqual([1, 2, 4, 8]);
  });

  it("renders every tile a viewer asks at its size, from the cache the second time", async () => {
    const asked: { region: string; size: string; width: number; height: number }[] = [];
    for (const factor of tileScaleFactors(scanSize)) {
      const step = 512 * factor;
      for (let y = 0; y < scanSize.height; y += step) {
        for (let x = 0; x < scanSize.width; x += step) {
          const w = Math.min(step, scanSize.width - x);
          const h = Math.min(step, scanSize.height - y);
          asked.push({
            region: `${x},${y},${w},${h}`,
            size: `${Math.ceil(w / factor)},${Math.ceil(h / factor)}`,
            width: Math.ceil(w / factor),
            height: Math.ceil(h / factor),
          });
        }
      }
    }
    // 5×4 + 3×2 + 2×1 + 1: within one image's kept renditions (48), so a whole pyramid stays cached.
    expect(asked).toHaveLength(29);
    for (const tile of asked) {
      const response = await ask(reader, imageId, tile.region, tile.size);
      expect([response.status, response.headers.get("mnemo-iiif-cache")]).toEqual([200, "miss"]);
      expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: tile.width, height: tile.height });
    }
    for (const tile of asked) expect((await ask(reader, imageId, tile.region, tile.size)).headers.get("mnemo-iiif-cache")).toBe("hit");
    // An edge tile, its size asked by width only, and a tile as webp.
    const edge = await ask(reader, imageId, "2048,1536,23,26", "23,");
    expect(await sharp(Buffer.from(await edge.arrayBuffer())).metadata()).toMatchObject({ width: 23, height: 26 });
    const webp = await ask(reader, imageId, "0,0,512,512", "512,512", "0", "default.webp");
    expect([webp.headers.get("content-type"), (await sharp(Buffer.from(await webp.arrayBuffer())).metadata()).format]).toEqual(["image/webp", "webp"]);
  });

  it("keeps a larger image's whole tile pyramid cached besides its other renditions, and no more", async () => {
    const directory = temporaryStorageDir();
    const cache = createRenditionCache(64 * 1024 * 1024);
    const folder = join("iiif-cache", "large", "image");
    const write = (index: number, keep?: number) =>
      cache.write(directory, { folder, sourceTag: "abc", name: `abc-${index}.jpg`, keep }, Buffer.alloc(10, index));
    // A 4096×3072 scan has 65 tiles: with them, 48 + 65 renditions are kept.
    for (let index = 0; index < 120; index++) await write(index, renditionsPerImage + 65);
    expect(readdirSync(join(directory, folder))).toHaveLength(113);
    // An untiled image: 48, the oldest going first.
    const small = join("iiif-cache", "small", "image");
    for (let index = 0; index < 60; index++)
      await cache.write(directory, { folder: small, sourceTag: "abc", name: `abc-${index}.jpg` }, Buffer.alloc(10, index));
    expect(readdirSync(join(directory, small))).toHaveLength(renditionsPerImage);
  });

  it("answers a valid request it does not render with 501, a malformed one with 400", async () => {
    for (const [rotation, quality] of [
      ["90", "default.jpg"],
      ["!0", "default.jpg"],
      ["0", "bitonal.jpg"],
      ["0", "default.tif"],
      ["0", "default.gif"],
      ["0", "default.jp2"],
      ["0", "default.pdf"],
    ] as const) {
      const refused = await appErrorOf(ask(reader, imageId, "0,0,512,512", "512,", rotation, quality));
      expect([rotation, quality, refused.code, errorResponse(refused).status]).toEqual([rotation, quality, "not_implemented", 501]);
    }
    for (const [rotation, quality] of [
      ["400", "default.jpg"],
      ["0", "sepia.jpg"],
      ["0", "default.bmp"],
    ] as const) {
      expect((await appErrorOf(ask(reader, imageId, "0,0,512,512", "512,", rotation, quality))).status).toBe(400);
    }
    expect((await appErrorOf(ask(reader, imageId, "0,0,512", "512,"))).status).toBe(400);
  });

  it("answers an image one may not read exactly as a missing one, tile, 501 or info.json", async () => {
    const missing = await appErrorOf(ask(anonymous, missingId, "0,0,512,512", "512,"));
    expect(missing.code).toBe("not_found");
    expect(await appErrorOf(ask(anonymous, imageId, "0,0,512,512", "512,"))).toEqual(missing);
    expect(await appErrorOf(ask(anonymous, imageId, "full", "max", "90", "default.tif"))).toEqual(missing);
    expect(await appErrorOf(ask(anonymous, missingId, "full", "max", "90", "default.tif"))).toEqual(missing);
    expect(await appErrorOf(imageInfoResponse(db.prisma, anonymous, { imageId, storageDir, serviceId: "x" }))).toEqual(missing);
  });
});
