import "server-only";
import { type Principal, publicReader } from "../../acl";
import type { PrismaClient } from "../../db/generated/client";
import type { SqlExecutor } from "../../db/sql-executor";
import { listPublicProjects, publicProjectIds } from "../public-projects";
import type { DcElement } from "./dublin-core";
import { dublinCoreOfRecords } from "./oai-metadata";
import { type ItemFilter, type OaiItem, countOaiItems, earliestOaiDatestamp, listOaiItems, sectionsWithItems } from "./oai-items";
import { type OaiRequest, OaiError, formatDatestamp, identifierOf, oaiDcPrefix, parseOaiRequest, recordIdOf, setSpecOf } from "./oai-request";
import { element, textElement } from "./oai-xml";
import { decodeResumptionToken, encodeResumptionToken } from "./resumption-token";

/**
 * OAI-PMH 2.0: one request's arguments in, the response document out. Harvesting is public:
 * whoever calls (anonymous, a session, a token), the records are read as the public reader of
 * the projects an admin marked public (lib/acl publicReader) — never the caller's own private
 * projects, so what a harvester stores is what anyone may see. Protocol errors are answered as
 * the protocol says: an <error> element in a normal response.
 */
/** Records (or headers) per list page, the rest behind a resumption token: a harvester's request stays short, and a harvest of any size needs only more of them. */
export const oaiPageSize = 100;

export interface OaiContext {
  prisma: PrismaClient;
  sql: SqlExecutor;
  /** The app's origin (AUTH_URL, else the called host): the base URL, identifiers and record URLs. */
  origin: string;
  repositoryName: string;
  /** Unset: oai@ the origin's host. */
  adminEmail?: string;
  /** oaiPageSize; tests set a smaller one to see several pages. */
  pageSize: number;
  /** Keys the resumption tokens' checksum. */
  tokenKey: string;
  now?: () => Date;
}

const oaiNamespace = "http://www.openarchives.org/OAI/2.0/";
const oaiDcNamespace = "http://www.openarchives.org/OAI/2.0/oai_dc/";
const dcNamespace = "http://purl.org/dc/elements/1.1/";
const xsi = "http://www.w3.org/2001/XMLSchema-instance";

/** The base URL of the protocol: harvesters send every request here. */
export function oaiBaseUrl(origin: string): string {
  return `${origin}/oai`;
}

/** The repository's part of every identifier: the configured host, without a port. */
export function repositoryIdentifierOf(origin: string): string {
  return new URL(origin).hostname;
}

function adminEmailOf(context: OaiContext): string {
  if (context.adminEmail) return context.adminEmail;
  const host = repositoryIdentifierOf(context.origin);
  return `oai@${host.includes(".") && !host.startsWith("[") ? host : "localhost.localdomain"}`;
}

const sqlStampToOai = (stamp: string) => `${stamp.replace(" ", "T")}Z`;
const sqlStampOf = (at: Date) => formatDatestamp(at).slice(0, 19).replace("T", " ");

/**
 * The response to a request whose arguments are `entries` (in the order sent; repeated keys
 * kept), or to one refused before its arguments could be read (`refusal`).
 */
export async function answerOaiRequest(context: OaiContext, entries: [string, string][], refusal?: OaiError): Promise<string> {
  const now = context.now?.() ?? new Date();
  const baseUrl = oaiBaseUrl(context.origin);
  const head = (attributes: Record<string, string>) => textElement("responseDate", formatDatestamp(now)) + textElement("request", baseUrl, attributes);
  const echoed = Object.fromEntries(entries);
  try {
    if (refusal) throw refusal;
    const request = parseOaiRequest(entries);
    const reader = publicReader(await publicProjectIds(context.prisma));
    const body = await answer(context, reader, request, now);
    return document(head(echoed) + body);
  } catch (error) {
    if (!(error instanceof OaiError)) throw error;
    // After badVerb or badArgument the request is echoed without its arguments (protocol 3.2).
    const attributes = error.code === "badVerb" || error.code === "badArgument" ? {} : echoed;
    return document(head(attributes) + textElement("error", error.message, { code: error.code }));
  }
}

function document(inner: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element("OAI-PMH", inner, { xmlns: oaiNamespace, "xmlns:xsi": xsi, "xsi:schemaLocation": `${oaiNamespace} http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd` })}\n`;
}

async function answer(context: OaiContext, reader: Principal, request: OaiRequest, now: Date): Promise<string> {
  const repository = repositoryIdentifierOf(context.origin);
  switch (request.verb) {
    case "Identify": {
      const earliest = await earliestOaiDatestamp(context.sql, reader);
      return element("Identify", [
        textElement("repositoryName", context.repositoryName),
        textElement("baseURL", oaiBaseUrl(context.origin)),
        textElement("protocolVersion", "2.0"),
        textElement("adminEmail", adminEmailOf(context)),
        textElement("earliestDatestamp", earliest ? sqlStampToOai(earliest) : formatDatestamp(now)),
        textElement("deletedRecord", "persistent"),
        textElement("granularity", "YYYY-MM-DDThh:mm:ssZ"),
      ]);
    }
    case "ListMetadataFormats": {
      if (request.identifier !== undefined) await itemOf(context, reader, request.identifier, repository);
      return element(
        "ListMetadataFormats",
        element("metadataFormat", [
          textElement("metadataPrefix", oaiDcPrefix),
          textElement("schema", "http://www.openarchives.org/OAI/2.0/oai_dc.xsd"),
          textElement("metadataNamespace", oaiDcNamespace),
        ]),
      );
    }
    case "ListSets": {
      if (request.resumptionToken !== undefined) throw new OaiError("badResumptionToken", "ListSets is answered whole: it issues no resumption token.");
      const [projects, sections] = await Promise.all([listPublicProjects(context.prisma), sectionsWithItems(context.sql, reader)]);
      const sets = [
        ...sections.flatMap((section) => setElement(setSpecOf("section", section.slug), section.name, section.description)),
        ...projects.flatMap((project) => setElement(setSpecOf("project", project.slug), project.name, project.description)),
      ];
      if (sets.length === 0) throw new OaiError("noSetHierarchy", "No collection is public yet: there is nothing to harvest.");
      return element("ListSets", sets);
    }
    case "GetRecord": {
      const item = await itemOf(context, reader, request.identifier, repository);
      const metadata = item.deleted ? new Map() : await dublinCoreOfRecords(context.prisma, reader, [item.id], (id) => recordUrl(context.origin, id));
      return element("GetRecord", recordElement(item, metadata.get(item.id), repository));
    }
    case "ListIdentifiers":
    case "ListRecords":
      return listAnswer(context, reader, request, now, repository);
  }
}

async function itemOf(context: OaiContext, reader: Principal, identifier: string, repository: string): Promise<OaiItem> {
  const id = recordIdOf(identifier, repository);
  const [item] = id ? await listOaiItems(context.sql, reader, { id }, 1) : [];
  // A record of a project that is not public is exactly as unknown as a missing one.
  if (!item) throw new OaiError("idDoesNotExist", "This repository has no record with that identifier.");
  return item;
}

async function listAnswer(
  context: OaiContext,
  reader: Principal,
  request: Extract<OaiRequest, { verb: "ListIdentifiers" | "ListRecords" }>,
  now: Date,
  repository: string,
): Promise<string> {
  let filter: ItemFilter & { until: string };
  let total: number;
  let cursor: number;
  if ("resumptionToken" in request) {
    const state = decodeResumptionToken(request.resumptionToken, { key: context.tokenKey, now, verb: request.verb });
    filter = { from: state.from, until: state.until, set: state.set, after: state.after };
    total = state.total;
    cursor = state.cursor;
  } else {
    // Until is frozen at the first page: a record changed during the harvest is left to the next one.
    filter = { from: request.list.from?.sql, until: request.list.until?.sql ?? sqlStampOf(now), set: request.list.set };
    total = await countOaiItems(context.sql, reader, filter);
    cursor = 0;
  }
  const page = await listOaiItems(context.sql, reader, filter, context.pageSize + 1);
  if (page.length === 0) throw new OaiError("noRecordsMatch", "No record matches these arguments.");
  const more = page.length > context.pageSize;
  const items = page.slice(0, context.pageSize);
  const last = items.at(-1)!;
  const listSize = Math.max(total, cursor + items.length);

  const children: string[] = [];
  if (request.verb === "ListRecords") {
    const live = items.filter((item) => !item.deleted).map((item) => item.id);
    const metadata = live.length
      ? await dublinCoreOfRecords(context.prisma, reader, live, (id) => recordUrl(context.origin, id))
      : new Map<string, [DcElement, string][]>();
    for (const item of items) children.push(recordElement(item, metadata.get(item.id), repository));
  } else {
    for (const item of items) children.push(headerElement(item, repository));
  }
  if (more) {
    const { token, expiresAt } = encodeResumptionToken(
      {
        verb: request.verb,
        set: filter.set,
        from: filter.from,
        until: filter.until,
        after: { datestamp: last.datestamp, id: last.id },
        total: listSize,
        cursor: cursor + items.length,
      },
      { key: context.tokenKey, now },
    );
    children.push(textElement("resumptionToken", token, { expirationDate: formatDatestamp(expiresAt), completeListSize: listSize, cursor }));
  } else if (cursor > 0) {
    // The last page of a list that was resumed ends with an empty token (protocol 3.5).
    children.push(element("resumptionToken", "", { completeListSize: listSize, cursor }));
  }
  return element(request.verb, children);
}

function recordUrl(origin: string, id: string): string {
  return `${origin}/records/${id}`;
}

function headerElement(item: OaiItem, repository: string): string {
  const specs = [setSpecOf("section", item.sectionSlug), setSpecOf("project", item.projectSlug)].filter((spec): spec is string => spec !== null);
  return element(
    "header",
    [
      textElement("identifier", identifierOf(item.id, repository)),
      textElement("datestamp", sqlStampToOai(item.datestamp)),
      ...specs.map((spec) => textElement("setSpec", spec)),
    ],
    { status: item.deleted ? "deleted" : undefined },
  );
}

function recordElement(item: OaiItem, dublinCore: [DcElement, string][] | undefined, repository: string): string {
  // A live record whose metadata could not be read (it left the public projects a moment ago) is sent as a header alone.
  if (item.deleted || !dublinCore) return element("record", headerElement(item, repository));
  return element("record", [headerElement(item, repository), element("metadata", oaiDc(dublinCore))]);
}

function oaiDc(pairs: [DcElement, string][]): string {
  return element(
    "oai_dc:dc",
    pairs.map(([name, text]) => textElement(`dc:${name}`, text)),
    {
      "xmlns:oai_dc": oaiDcNamespace,
      "xmlns:dc": dcNamespace,
      "xmlns:xsi": xsi,
      "xsi:schemaLocation": `${oaiDcNamespace} http://www.openarchives.org/OAI/2.0/oai_dc.xsd`,
    },
  );
}

function setElement(spec: string | null, name: string, description: string): string[] {
  if (spec === null) return [];
  const about = description.trim() ? [element("setDescription", oaiDc([["description", description.trim()]]))] : [];
  return [element("set", [textElement("setSpec", spec), textElement("setName", name), ...about])];
}
