import "server-only";
import { type Principal, egressAllowed, mayLeaveHost } from "../../acl";
import { contextSpaceName } from "../embed/descriptor-embedder";
import { type CategoricalProposal, type DateProposal, aggregateDates, voteCategorical } from "./characterise-math";
import {
  type Neighbour,
  type NeighbourReads,
  type ObjectSubject,
  contextLeg,
  findNeighbours,
  imageLegs,
  loadObjectSubject,
  neighbourReads,
} from "./object-neighbours";
import { type ProposalRole, contextText, defaultProposalContextWeight, roleValue } from "../config/object-context";
import { type ObjectsRuntime, descriptorSpace } from "./similar-objects";
import { type SubjectStatements, loadSubjectStatements } from "./load-statements";
import { type Judgement, type RecordStatementsForRole, judgeCategorical, judgeDate } from "./respect-statements";

/**
 * "Describe the object by its relatives": for each role the section catalogues, the nearest
 * catalogued objects vote, weighted by similarity — categorical roles elect a value whose share
 * of the weight is the confidence; the date becomes an earliest–latest range around a weighted
 * central year. In hybrid mode the neighbours are found by the images AND the object's other
 * roles (the typology proposal sees the material and period, never the typology itself).
 */
export const proposalNeighbours = 10;
export const supportShown = 4;

export type CharacterisationMode = "hybrid" | "visual";

export interface RoleCharacterisation {
  role: ProposalRole;
  fieldKey: string;
  fieldLabel: string;
  /** The record's current value ("" when not catalogued). */
  current: string;
  categorical: CategoricalProposal | null;
  date: DateProposal | null;
  /** The neighbours that supported the winner (or, for the date, the closest dated ones). */
  support: Neighbour[];
  /** Every neighbour that voted, with its weight. */
  voters: { recordId: string; title: string; projectId: string; weight: number; value: string; date: { from: number; to: number } | null }[];
  /** What the record states for this role. */
  statements: RecordStatementsForRole;
  /** The proposal after respecting the record: stated values outrank votes, contradicting votes are flagged. */
  judgement: Judgement;
}

export interface Characterisation {
  status: "ok" | "pending";
  mode: CharacterisationMode;
  subject: ObjectSubject;
  roles: RoleCharacterisation[];
  /** Projects of every neighbour that voted: a stored proposal is shown only to readers of all. */
  evidenceProjectIds: string[];
  /** How the context leg was obtained, for the label next to the proposals. */
  usedContext: boolean;
}

/** The roles proposed together: period and date hide each other from the context. */
const roleGroups: { roles: ProposalRole[]; omit: ProposalRole[] }[] = [
  { roles: ["typology"], omit: ["typology"] },
  { roles: ["material"], omit: ["material"] },
  { roles: ["period", "date"], omit: ["period", "date"] },
];

/** A neighbour's vote weight: its similarity on the legs used, never below zero. */
export function neighbourWeight(neighbour: Neighbour, mode: CharacterisationMode): number {
  const parts = [neighbour.visualSimilarity, mode === "hybrid" ? neighbour.contextSimilarity : null].filter((value): value is number => value !== null);
  if (parts.length === 0) return 0;
  return Math.max(0, parts.reduce((sum, value) => sum + value, 0) / parts.length);
}

export async function characteriseObject(
  runtime: ObjectsRuntime,
  principal: Principal,
  input: {
    recordId: string;
    mode?: CharacterisationMode;
    neighbours?: number;
    subject?: ObjectSubject;
    omitFromContext?: readonly ProposalRole[];
    reads?: NeighbourReads;
  },
): Promise<Characterisation> {
  const mode = input.mode ?? "hybrid";
  const subject = input.subject ?? (await loadObjectSubject(runtime.sql, principal, input.recordId));
  const views = await imageLegs(runtime.sql, subject.recordId, descriptorSpace(runtime));
  const result: Characterisation = { status: "ok", mode, subject, roles: [], evidenceProjectIds: [], usedContext: false };
  if (views.length === 0) return { ...result, status: "pending" };
  const evidenceProjects = new Set<string>();
  const limit = input.neighbours ?? proposalNeighbours;
  const statements: SubjectStatements = await loadSubjectStatements(runtime.sql, subject);
  // The role groups share the image legs and most candidates: each is read once.
  const reads = input.reads ?? neighbourReads();

  for (const group of roleGroups) {
    const roles = group.roles.filter((role) => subject.context.roles[role]);
    if (roles.length === 0) continue;
    const legs = [...views];
    const contextWeight = subject.context.proposalContextWeight ?? defaultProposalContextWeight;
    // The object's catalogue text is embedded now: never by a remote embedder unless allowed.
    const mayEmbed = mayLeaveHost(runtime.embedder, egressAllowed([subject.egressPolicy]));
    if (mode === "hybrid" && runtime.textSpace && contextWeight > 0 && mayEmbed) {
      const text = contextText(subject.context, subject.fields, subject.values, [...group.omit, ...(input.omitFromContext ?? [])]);
      if (text) {
        const [vector] = await runtime.embedder.embed([text], "query");
        if (vector) {
          legs.push(contextLeg(contextSpaceName(runtime.textSpace.id), vector, contextWeight));
          result.usedContext = true;
        }
      }
    }
    const neighbours = await findNeighbours(runtime.sql, principal, subject, { legs, limit, reads });
    for (const role of roles) {
      const fieldKey = subject.context.roles[role] ?? "";
      const fieldLabel = subject.fields.find((field) => field.key === fieldKey)?.label ?? role;
      const weighted = neighbours.map((neighbour) => ({ neighbour, weight: neighbourWeight(neighbour, mode) }));
      const characterisation: RoleCharacterisation = {
        role,
        fieldKey,
        fieldLabel,
        current: roleValue(subject.context, role, subject.values),
        categorical: null,
        date: null,
        support: [],
        voters: [],
        statements: statements[role],
        judgement: { value: null, confidence: 0, source: null, stated: null, flag: null },
      };
      if (role === "date") {
        const dated = weighted.filter(({ neighbour }) => neighbour.date);
        characterisation.date = aggregateDates(
          dated.map(({ neighbour, weight }) => ({ from: neighbour.date?.from ?? 0, to: neighbour.date?.to ?? 0, weight })),
        );
        characterisation.voters = dated.map(({ neighbour, weight }) => ({
          recordId: neighbour.recordId,
          title: neighbour.title,
          projectId: neighbour.projectId,
          weight,
          value: neighbour.roles.date ?? "",
          date: neighbour.date,
        }));
        const central = characterisation.date?.central;
        characterisation.support = dated
          .filter(({ neighbour }) => central !== undefined && neighbour.date && neighbour.date.from <= central && central <= neighbour.date.to)
          .slice(0, supportShown)
          .map(({ neighbour }) => neighbour);
        for (const { neighbour } of dated) evidenceProjects.add(neighbour.projectId);
        characterisation.judgement = judgeDate(characterisation.date, statements.date);
      } else {
        const voting = weighted.filter(({ neighbour }) => neighbour.roles[role]);
        characterisation.categorical = voteCategorical(voting.map(({ neighbour, weight }) => ({ value: neighbour.roles[role], weight })));
        characterisation.voters = voting.map(({ neighbour, weight }) => ({
          recordId: neighbour.recordId,
          title: neighbour.title,
          projectId: neighbour.projectId,
          weight,
          value: neighbour.roles[role] ?? "",
          date: neighbour.date,
        }));
        for (const { neighbour } of voting) evidenceProjects.add(neighbour.projectId);
        characterisation.judgement = judgeCategorical(role, characterisation.categorical, statements[role]);
        // The neighbours shown as support: those voting what is proposed (or the flagged vote), never a placeholder's.
        const { value: judged, flag } = characterisation.judgement;
        const shown = (typeof judged === "string" ? judged : typeof flag?.vote === "string" ? flag.vote : null)?.toLocaleLowerCase();
        characterisation.support = voting
          .filter(({ neighbour }) => shown !== undefined && neighbour.roles[role]?.toLocaleLowerCase() === shown)
          .slice(0, supportShown)
          .map(({ neighbour }) => neighbour);
      }
      result.roles.push(characterisation);
    }
  }
  result.evidenceProjectIds = [...evidenceProjects].sort();
  return result;
}

/**
 * The value a proposal would write into its field: a value the record states, else the
 * neighbours' vote unless it contradicts the record (then the best consistent vote, or nothing).
 */
export function proposedFieldValue(role: RoleCharacterisation): string | { from: number; to: number } | null {
  return role.judgement.value;
}

/** The neighbours' vote alone, as proposals were before the record's own text counted (eval:objects compares). */
export function votedFieldValue(role: RoleCharacterisation): string | { from: number; to: number } | null {
  if (role.role === "date") return role.date ? { from: role.date.earliest, to: role.date.latest } : null;
  return role.categorical?.value ?? null;
}
