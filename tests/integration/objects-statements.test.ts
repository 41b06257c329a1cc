import { beforeAll, describe, expect, it } from "vitest";
import { type Principal, systemPrincipal } from "../../lib/acl";
import type { FieldDefinition } from "../../lib/archive/field-definitions";
import { storeMedia } from "../../lib/archive/media-storage";
import { saveRecord } from "../../lib/archive/save-record";
import type { Database } from "../../lib/db/database";
import type { ObjectContext } from "../../lib/rag/config/object-context";
import { createDescriptorEmbedder } from "../../lib/rag/embed/descriptor-embedder";
import { createHashEmbedder } from "../../lib/rag/embed/hash-embedder";
import type { IndexSpace } from "../../lib/rag/index/index-spaces";
import { runWorker } from "../../lib/rag/index/run-worker";
import { characteriseObject, proposedFieldValue, votedFieldValue } from "../../lib/rag/objects/characterise";
import { decideProposal, listPendingProposals, proposalsForRecord, proposeForUncatalogued } from "../../lib/rag/objects/proposals";
import { contradicts } from "../../lib/rag/objects/respect-statements";
import type { ObjectsRuntime } from "../../lib/rag/objects/similar-objects";
import { renderCoinFace } from "../../prisma/seed/render-coin";
import { closeAfterAll } from "../support/close-after-all";
import { addMember, createProject, createUser, principalOf, temporaryStorageDir, testIndexSpace } from "../support/factories";
import { openTestDatabase } from "../support/test-database";

/**
 * Proposals that respect the record: a date or a vocabulary term the record's own title states
 * outranks the neighbours' votes, and a vote that contradicts it is flagged, never proposed.
 */
const fields: FieldDefinition[] = [
  { key: "title", label: "Title", type: "text", required: true, listed: true },
  { key: "metal", label: "Metal", type: "category", options: ["silver", "bronze", "billon", "gold"] },
  { key: "typology", label: "Typology", type: "category", options: ["denarius", "as", "antoninianus", "unidentified"] },
  { key: "period", label: "Period", type: "category", options: ["Roman Republic", "Roman Imperial"] },
  { key: "date", label: "Date", type: "daterange" },
  { key: "notes", label: "Notes", type: "longtext" },
  { key: "obverse", label: "Obverse", type: "image", view: "obverse" },
  { key: "reverse", label: "Reverse", type: "image", view: "reverse" },
];

const context: ObjectContext = {
  images: [
    { field: "obverse", view: "obverse" },
    { field: "reverse", view: "reverse" },
  ],
  roles: { typology: "typology", material: "metal", period: "period", date: "date" },
  compareWith: ["stated-coins"],
};

const kinds = {
  denarius: { metal: "silver", typology: "denarius", period: "Roman Republic", date: { from: -211, to: -100 } },
  antoninianus: { metal: "billon", typology: "antoninianus", period: "Roman Imperial", date: { from: 238, to: 274 } },
} as const;

let db: Database;
let runtime: ObjectsRuntime;
let storageDir: string;
let space: IndexSpace;
let projectId: string;
let curator: Principal;
let outsider: Principal;
const ids: Record<string, string> = {};
const embedder = createHashEmbedder({ dimension: 64 });
const descriptor = createDescriptorEmbedder();

async function coin(title: string, look: keyof typeof kinds, key: string, values: Record<string, unknown>, sectionSlug = "stated-coins"): Promise<string> {
  const spec = kinds[look];
  const image = async (side: "obverse" | "reverse") => {
    const bytes = await renderCoinFace({ key, face: side, metal: spec.metal, typology: spec.typology, period: spec.period });
    return (
      await storeMedia(db.prisma, systemPrincipal, {
        projectId,
        file: { name: `${key}-${side}.webp`, bytes },
        expectedKind: "image",
        storageDir,
        maxBytes: 5 * 1024 * 1024,
      })
    ).id;
  };
  const saved = await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug,
    projectId,
    values: { title, ...values, obverse: await image("obverse"), reverse: await image("reverse") },
  });
  return saved.id;
}

beforeAll(async () => {
  db = await openTestDatabase();
  storageDir = temporaryStorageDir();
  space = await testIndexSpace(db.sql, embedder);
  runtime = { sql: db.sql, embedder, textSpace: space, descriptor, multimodal: null };
  await db.prisma.section.create({ data: { slug: "stated-coins", name: "Stated coins", fields: fields as never, objectContext: context as never } });
  projectId = (await createProject(db.prisma)).id;
  const curatorUser = await createUser(db.prisma, { role: "curator" });
  await addMember(db.prisma, curatorUser.id, projectId, "editor");
  curator = await principalOf(db.prisma, curatorUser.id);
  outsider = await principalOf(db.prisma, (await createUser(db.prisma, { role: "researcher" })).id);

  // Catalogued neighbours; their titles state nothing.
  for (let i = 0; i < 5; i++) ids[`denarius${i}`] = await coin(`Coin ${i + 1}`, "denarius", `denarius-${i}`, { ...kinds.denarius });
  for (let i = 0; i < 2; i++) ids[`antoninianus${i}`] = await coin(`Coin ${i + 10}`, "antoninianus", `antoninianus-${i}`, { ...kinds.antoninianus });
  // Looks like a Republican denarius, but its title states a date no neighbour's period spans.
  ids.dated = await coin("Silver coin, AD 1520 - AD 1530. 1944.100.7", "denarius", "dated", { metal: "silver" });
  // Looks like a denarius; its title names another typology of the vocabulary. "688" is a catalogue number.
  ids.named = await coin("RIC V Gallienus 688 (antoninianus)", "denarius", "named", { metal: "silver" });
  // States nothing: the neighbours' vote stands.
  ids.plain = await coin("Uncatalogued silver coin", "denarius", "plain", {
    metal: "silver",
    notes: "Bought from a dealer in Rome, 1987 catalogue no. 2004.14.",
  });
  // Ten catalogued denarii (no images: never neighbours) whose notes name another typology: the
  // catalogue shows the notes are no witness to the typology.
  for (let i = 0; i < 10; i++) {
    await saveRecord(db.prisma, systemPrincipal, {
      sectionSlug: "stated-coins",
      projectId,
      values: { title: `Coin ${i + 20}`, ...kinds.denarius, notes: "Struck over an antoninianus." },
    });
  }
  ids.noted = await coin("Silver coin", "denarius", "noted", { metal: "silver", notes: "Struck over an antoninianus." });

  // A collection whose typologies are classes and whose denominations are kept apart: neighbours
  // catalogued "unidentified", and one quadrans (no images: never a neighbour) catalogued "other".
  await db.prisma.section.create({
    data: {
      slug: "denominated-coins",
      name: "Denominated coins",
      fields: [...fields, { key: "denomination", label: "Denomination", type: "text" }] as never,
      objectContext: { ...context, compareWith: ["denominated-coins"] } as never,
    },
  });
  for (let i = 0; i < 4; i++)
    await coin(`RIC II Hadrian ${600 + i}`, "antoninianus", `unidentified-${i}`, { metal: "bronze", typology: "unidentified" }, "denominated-coins");
  await saveRecord(db.prisma, systemPrincipal, {
    sectionSlug: "denominated-coins",
    projectId,
    values: { title: "RIC II Hadrian 700 (quadrans)", denomination: "Quadrans", typology: "unidentified", metal: "bronze" },
  });
  ids.quadrans = await coin("RIC II Hadrian 688 (quadrans). 2004.14.120", "antoninianus", "quadrans", { metal: "bronze" }, "denominated-coins");
  ids.unnamed = await coin("RIC II Hadrian 689. 2004.14.121", "antoninianus", "unnamed", { metal: "bronze" }, "denominated-coins");
  await runWorker({
    prisma: db.prisma,
    sql: db.sql,
    embedder,
    space,
    drain: true,
    idleMs: 10,
    batchSize: 8,
    objects: { storageDir, imageEmbedders: [descriptor] },
  });
}, 240_000);

closeAfterAll(() => db);

const roleOf = async (recordId: string, role: string) =>
  (await characteriseObject(runtime, curator, { recordId })).roles.find((candidate) => candidate.role === role);

describe("proposals that respect the record", () => {
  it("proposes the date the title states, never a contradicting vote, and flags the vote", async () => {
    const date = await roleOf(ids.dated ?? "", "date");
    // The neighbours alone would propose a range wholly before AD 1520: the contradiction.
    const voted = date ? votedFieldValue(date) : null;
    expect(voted).not.toBeNull();
    expect(date && contradicts("date", voted, date.statements)).toBe(true);
    expect(date?.judgement).toMatchObject({
      source: "stated",
      value: { from: 1520, to: 1530 },
      stated: { sources: [{ label: "Title", text: "AD 1520 - AD 1530" }] },
    });
    expect(date && contradicts("date", proposedFieldValue(date), date.statements)).toBe(false);
    expect(date?.judgement.flag?.vote).toEqual(voted);
    expect(date?.judgement.flag?.contradicts).toBe("the title states “AD 1520 - AD 1530”");
  });

  it("does not propose a period whose catalogued span excludes the stated date", async () => {
    const period = await roleOf(ids.dated ?? "", "period");
    expect(period?.categorical?.value).toBe("Roman Republic");
    expect(period?.judgement.value).toBeNull();
    expect(period?.judgement.flag).toMatchObject({ vote: "Roman Republic" });
    expect(period?.judgement.flag?.contradicts).toContain("outside Roman Republic (catalogued 211 BC – 100 BC)");
  });

  it("proposes a vocabulary term the title names over the neighbours' vote; a catalogue number is no date", async () => {
    const roles = (await characteriseObject(runtime, curator, { recordId: ids.named ?? "" })).roles;
    const typology = roles.find((role) => role.role === "typology");
    expect(typology?.categorical?.value).toBe("denarius");
    expect(typology?.judgement).toMatchObject({ source: "stated", value: "antoninianus", confidence: 1, flag: { vote: "denarius" } });
    expect(typology?.judgement.stated?.sources).toEqual([{ label: "Title", text: "antoninianus" }]);
    const date = roles.find((role) => role.role === "date");
    expect(date?.statements.date).toBeNull();
    expect(date?.judgement.source).toBe("votes");
  });

  it("leaves a record that states nothing to its neighbours (a dealer's year in the notes is no date)", async () => {
    const roles = (await characteriseObject(runtime, curator, { recordId: ids.plain ?? "" })).roles;
    for (const role of roles) {
      expect(role.judgement.flag).toBeNull();
      expect(proposedFieldValue(role)).toEqual(votedFieldValue(role));
    }
  });

  it("does not read a field the catalogue shows to disagree with a role", async () => {
    const typology = await roleOf(ids.noted ?? "", "typology");
    expect(typology?.statements.terms).toEqual([]);
    expect(typology?.judgement).toMatchObject({ source: "votes", value: "denarius", flag: null });
    // The same words in the title (not shown unreliable) are a statement.
    const named = await roleOf(ids.named ?? "", "typology");
    expect(named?.statements.terms).toEqual([{ value: "antoninianus", text: "antoninianus", label: "Title" }]);
  });

  it("stores the stated proposal and the flag; a flagged vote cannot be accepted, only overridden or rejected", async () => {
    await proposeForUncatalogued(runtime, curator, {});
    const stored = await proposalsForRecord(runtime, curator, ids.dated ?? "");
    const date = stored.find((proposal) => proposal.role === "date");
    expect(date).toMatchObject({ proposed: true, value: { from: 1520, to: 1530 }, confidence: 1, stated: { value: { from: 1520, to: 1530 } } });
    expect(date?.flag?.contradicts).toBe("the title states “AD 1520 - AD 1530”");
    const period = stored.find((proposal) => proposal.role === "period");
    expect(period).toMatchObject({ proposed: false, value: "Roman Republic", stated: null });
    expect(period?.flag?.contradicts).toContain("outside Roman Republic");

    // The review queue carries the flag.
    const queue = await listPendingProposals(runtime, curator, { role: "period" });
    expect(queue.proposals.find((proposal) => proposal.recordId === ids.dated)).toMatchObject({ proposed: false, flag: { vote: "Roman Republic" } });
    expect((await listPendingProposals(runtime, outsider)).total).toBe(0);

    const before = await db.prisma.record.findUniqueOrThrow({ where: { id: ids.dated } });
    await expect(decideProposal(runtime, db.prisma, curator, { action: "accept", recordId: ids.dated ?? "", role: "period" })).rejects.toMatchObject({
      code: "conflict",
    });
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.dated } })).version).toBe(before.version);
    expect(await decideProposal(runtime, db.prisma, curator, { action: "reject", recordId: ids.dated ?? "", role: "period" })).toEqual({
      status: "rejected",
      recordVersion: null,
    });

    // Accepting the stated date writes it.
    const accepted = await decideProposal(runtime, db.prisma, curator, {
      action: "accept",
      recordId: ids.dated ?? "",
      role: "date",
      expected: { from: 1520, to: 1530 },
    });
    expect(accepted.status).toBe("accepted");
    expect((await db.prisma.record.findUniqueOrThrow({ where: { id: ids.dated } })).values).toMatchObject({ date: { from: 1520, to: 1530 } });

    const typology = (await proposalsForRecord(runtime, curator, ids.named ?? "")).find((proposal) => proposal.role === "typology");
    expect(typology).toMatchObject({ proposed: true, value: "antoninianus", flag: { vote: "denarius" } });
  });
});

describe("placeholders and denominations outside the vocabulary", () => {
  it("never proposes a placeholder the neighbours vote, and respects a denomination the section's data knows", async () => {
    // The neighbours all vote "unidentified": no evidence, nothing proposed.
    const unnamed = await roleOf(ids.unnamed!, "typology");
    expect(unnamed?.categorical?.value).toBe("unidentified");
    expect(proposedFieldValue(unnamed!)).toBeNull();
    expect(unnamed?.judgement).toMatchObject({ value: null, stated: null, flag: null });
    expect(unnamed?.support).toEqual([]);

    // "quadrans" in the title is a denomination of the section's data, not a typology value: stated, not proposed.
    const quadrans = await roleOf(ids.quadrans!, "typology");
    expect(proposedFieldValue(quadrans!)).toBeNull();
    expect(quadrans?.judgement.stated).toEqual({ value: "Quadrans", sources: [{ label: "Title", text: "quadrans" }] });
  });
});
