import "server-only";
import type { z } from "zod";
import type {
  listSectionsOutput,
  readRecordOutput,
  retrieveOutput,
  semanticSearchOutput,
  similarObjectsOutput,
  similarRecordsOutput,
  embedGroupsOutput,
} from "../api-schemas";
import { jsonSchema } from "../openapi";
import { type ApiOperation, operationNamed } from "../operations";
import type { ResearchCitation } from "./research-schemas";

/**
 * The tools research mode offers its model: the read operations MCP offers, minus
 * - ask (an answer inside an answer: its own model, its own egress; the model can retrieve instead),
 * - get_agent_context (the passages of retrieve packed into one fenced block of text, which
 *   cannot be withheld passage by passage; retrieve gives the same passages one by one),
 * - characterize_object (its proposals aggregate the values of neighbours it does not name, so
 *   whether they may leave the host cannot be told per record; similar_objects names each one),
 * and never the imports or the write operations. Each tool says how its operation's output is
 * shown to the model: only text whose record (or passage: its section and contributing sections,
 * as ask decides) allows egress, the rest replaced by a withheld marker; each item the model may
 * cite gets a source number. An operation without such a view is not a tool (default deny).
 */
export const withheldMarker =
  "[withheld: this text may not be sent to an external model (its section is local-only); the researcher can open it from the step]";

export interface SourceDraft {
  /** What makes two results the same source (a passage, or a whole record). */
  key: string;
  /** The text the model was given for it: what a quotation citing it must come from. */
  text: string;
  citation: Omit<ResearchCitation, "id">;
}

/** What a tool's view needs: which ids may leave the host, a number for each citable source, and the link origin. */
export interface ViewContext {
  origin: string;
  passageAllowed(chunkId: string): boolean;
  recordAllowed(recordId: string): boolean;
  cite(source: SourceDraft): number;
}

export interface ToolView {
  /** The JSON the model receives. */
  model: unknown;
  withheld: number;
  summary: string;
  links: { title: string; href: string }[];
}

interface ResearchTool<Output> {
  operation: ApiOperation;
  /** Ids in the output whose egress must be known before the view is built. */
  ids(output: Output): { chunkIds: string[]; recordIds: string[] };
  view(output: Output, context: ViewContext): ToolView;
}

const recordLink = (origin: string, id: string, title: string) => ({ title, href: `${origin}/records/${id}` });

function hitsSummary(count: number, noun: [string, string], titles: string[]): string {
  if (count === 0) return `No ${noun[1]}.`;
  const shown = titles.slice(0, 3).join("; ");
  return `${count} ${count === 1 ? noun[0] : noun[1]}: ${shown}${titles.length > 3 ? "; …" : ""}`;
}

/** Every string a value holds (fields, transcript turns, nested values), in order. */
function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}

type SearchOutput = z.output<typeof semanticSearchOutput>;
const semanticSearch: ResearchTool<SearchOutput> = {
  operation: operationNamed("semantic_search") as unknown as ApiOperation,
  ids: (output) => ({ chunkIds: output.results.map((hit) => hit.citation.chunkId), recordIds: [] }),
  view(output, context) {
    let withheld = 0;
    const results = output.results.map((hit) => {
      if (!context.passageAllowed(hit.citation.chunkId)) {
        withheld += 1;
        return { rank: hit.rank, withheld: withheldMarker };
      }
      const { id: _id, ...citation } = hit.citation;
      const source = context.cite({ key: `passage:${hit.citation.chunkId}`, text: `${hit.recordTitle}\n${hit.snippet}`, citation });
      return { rank: hit.rank, source, recordId: hit.recordId, title: hit.recordTitle, section: hit.section, snippet: hit.snippet };
    });
    return {
      model: { query: output.query, results },
      withheld,
      summary: hitsSummary(
        output.results.length,
        ["hit", "hits"],
        output.results.map((hit) => hit.recordTitle),
      ),
      links: output.results.map((hit) => recordLink(context.origin, hit.recordId, hit.recordTitle)),
    };
  },
};

type RetrieveOutput = z.output<typeof retrieveOutput>;
const retrieve: ResearchTool<RetrieveOutput> = {
  operation: operationNamed("retrieve") as unknown as ApiOperation,
  ids: (output) => ({ chunkIds: output.passages.map((passage) => passage.citation.chunkId), recordIds: [] }),
  view(output, context) {
    let withheld = 0;
    const passages = output.passages.map((passage) => {
      if (!context.passageAllowed(passage.citation.chunkId)) {
        withheld += 1;
        return { withheld: withheldMarker };
      }
      const { id: _id, ...citation } = passage.citation;
      const text = passage.translation ? `${passage.text}\n${passage.translation}` : passage.text;
      const source = context.cite({ key: `passage:${citation.chunkId}`, text: `${citation.recordTitle}\n${text}`, citation });
      return {
        source,
        recordId: citation.recordId,
        title: citation.recordTitle,
        section: citation.section,
        location: citation.location,
        text: passage.text,
        ...(passage.translation ? { englishTranslation: passage.translation } : {}),
      };
    });
    return {
      model: { query: output.query, passages },
      withheld,
      summary: hitsSummary(
        output.passages.length,
        ["passage", "passages"],
        output.passages.map((passage) => passage.citation.recordTitle),
      ),
      links: uniqueLinks(output.passages.map((passage) => recordLink(context.origin, passage.citation.recordId, passage.citation.recordTitle))),
    };
  },
};

function uniqueLinks(links: { title: string; href: string }[]): { title: string; href: string }[] {
  return links.filter((link, index) => links.findIndex((other) => other.href === link.href) === index);
}

type SimilarRecordsOutput = z.output<typeof similarRecordsOutput>;
const similarRecords: ResearchTool<SimilarRecordsOutput> = {
  operation: operationNamed("similar_records") as unknown as ApiOperation,
  ids: (output) => ({ chunkIds: output.results.map((item) => item.closestPassage.chunkId), recordIds: [] }),
  view(output, context) {
    let withheld = 0;
    const results = output.results.map((item) => {
      if (!context.passageAllowed(item.closestPassage.chunkId)) {
        withheld += 1;
        return { withheld: withheldMarker };
      }
      const passage = item.closestPassage;
      const source = context.cite({
        key: `passage:${passage.chunkId}`,
        text: `${item.recordTitle}\n${passage.snippet}`,
        citation: {
          recordId: item.recordId,
          recordTitle: item.recordTitle,
          section: item.section,
          sectionName: item.sectionName,
          chunkId: passage.chunkId,
          location: passage.location,
          language: null,
          page: passage.page,
          pageEnd: null,
          timeStart: passage.timeStart,
          timeEnd: null,
          url: passage.url,
        },
      });
      return { source, recordId: item.recordId, title: item.recordTitle, section: item.section, similarity: item.similarity, snippet: passage.snippet };
    });
    return {
      model: { recordId: output.recordId, results },
      withheld,
      summary: hitsSummary(
        output.results.length,
        ["similar record", "similar records"],
        output.results.map((item) => item.recordTitle),
      ),
      links: output.results.map((item) => recordLink(context.origin, item.recordId, item.recordTitle)),
    };
  },
};

function recordCitation(context: ViewContext, record: { id: string; title: string; section: string; sectionName: string }): Omit<ResearchCitation, "id"> {
  return {
    recordId: record.id,
    recordTitle: record.title,
    section: record.section,
    sectionName: record.sectionName,
    chunkId: null,
    location: "Record",
    language: null,
    page: null,
    pageEnd: null,
    timeStart: null,
    timeEnd: null,
    url: `${context.origin}/records/${record.id}`,
  };
}

type SimilarObjectsOutput = z.output<typeof similarObjectsOutput>;
const similarObjects: ResearchTool<SimilarObjectsOutput> = {
  operation: operationNamed("similar_objects") as unknown as ApiOperation,
  ids: (output) => ({ chunkIds: [], recordIds: output.results.map((item) => item.recordId) }),
  view(output, context) {
    let withheld = 0;
    const results = output.results.map((item) => {
      if (!context.recordAllowed(item.recordId)) {
        withheld += 1;
        return { withheld: withheldMarker };
      }
      const catalogue = Object.entries(item.roles).map(([role, value]) => `${role}: ${value}`);
      const date = item.date ? `date: ${item.date.from}–${item.date.to}` : null;
      const source = context.cite({
        key: `record:${item.recordId}`,
        text: [item.title, ...catalogue, ...(date ? [date] : [])].join("\n"),
        citation: recordCitation(context, { id: item.recordId, title: item.title, section: item.section, sectionName: item.sectionName }),
      });
      return { source, recordId: item.recordId, title: item.title, section: item.section, score: item.score, roles: item.roles, date: item.date };
    });
    return {
      model: { recordId: output.recordId, status: output.status, mode: output.mode, results },
      withheld,
      summary:
        output.status === "pending"
          ? "The object's images are not described yet."
          : hitsSummary(
              output.results.length,
              ["similar object", "similar objects"],
              output.results.map((item) => item.title),
            ),
      links: output.results.map((item) => recordLink(context.origin, item.recordId, item.title)),
    };
  },
};

type ReadRecordOutput = z.output<typeof readRecordOutput>;
const readRecord: ResearchTool<ReadRecordOutput> = {
  operation: operationNamed("read_record") as unknown as ApiOperation,
  ids: (output) => ({ chunkIds: [], recordIds: [output.id, ...output.linked.map((item) => item.id), ...output.backlinks.map((item) => item.id)] }),
  view(output, context) {
    const links = [recordLink(context.origin, output.id, output.title)];
    if (!context.recordAllowed(output.id)) {
      return { model: { withheld: withheldMarker }, withheld: 1, summary: `Read “${output.title}” (its text was withheld from the model).`, links };
    }
    let withheld = 0;
    const related = <T extends { id: string; title: string }>(items: T[]) =>
      items.map((item) => {
        if (context.recordAllowed(item.id)) return item;
        withheld += 1;
        return { withheld: withheldMarker };
      });
    const source = context.cite({
      key: `record:${output.id}`,
      text: [output.title, ...stringsIn(output.values)].join("\n"),
      citation: recordCitation(context, { id: output.id, title: output.title, section: output.section.slug, sectionName: output.section.name }),
    });
    return {
      model: {
        source,
        id: output.id,
        title: output.title,
        section: output.section.name,
        fields: output.fields.map((field) => ({ key: field.key, label: field.label, type: field.type })),
        values: output.values,
        linked: related(output.linked),
        backlinks: related(output.backlinks),
      },
      withheld,
      summary: `Read “${output.title}” (${output.section.name}).`,
      links,
    };
  },
};

type ListSectionsOutput = z.output<typeof listSectionsOutput>;
const listSections: ResearchTool<ListSectionsOutput> = {
  operation: operationNamed("list_sections") as unknown as ApiOperation,
  ids: () => ({ chunkIds: [], recordIds: [] }),
  // Structure, not content: no record's text.
  view: (output) => ({
    model: output,
    withheld: 0,
    summary: `${output.sections.length} sections: ${output.sections.map((section) => section.name).join("; ")}`,
    links: [],
  }),
};

type EmbedGroupsOutput = z.output<typeof embedGroupsOutput>;
const embedGroups: ResearchTool<EmbedGroupsOutput> = {
  operation: operationNamed("embed_groups") as unknown as ApiOperation,
  ids: () => ({ chunkIds: [], recordIds: [] }),
  view: (output) => ({ model: output, withheld: 0, summary: `${output.groups.length} embed groups of ${output.section}.`, links: [] }),
};

const tools = [semanticSearch, retrieve, readRecord, similarRecords, similarObjects, listSections, embedGroups] as unknown as ResearchTool<
  Record<string, unknown>
>[];

export type AnyResearchTool = ResearchTool<Record<string, unknown>>;

export const researchTools: readonly AnyResearchTool[] = tools;

export function researchToolNamed(name: string): AnyResearchTool | undefined {
  return tools.find((tool) => tool.operation.name === name);
}

/** The model's tool definitions: the operations' names, descriptions and MCP input schemas as JSON Schema. */
export function researchToolDefinitions(): { name: string; description: string; inputSchema: Record<string, unknown> }[] {
  return tools.map((tool) => ({
    name: tool.operation.name,
    description: tool.operation.description,
    inputSchema: jsonSchema(tool.operation.toolInput ?? tool.operation.input, "input"),
  }));
}
