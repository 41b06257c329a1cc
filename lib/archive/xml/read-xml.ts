import { SaxesParser, type SaxesTagNS } from "saxes";
import { AppError } from "../../errors";
import { pieceEnd } from "../../text-pieces";

/**
 * A small XML tree read safely: well-formedness checked by saxes (a pure-JavaScript parser that
 * reads no DTD, fetches nothing and knows only XML's five predefined entities), namespaces
 * resolved, comments and processing instructions dropped. A DOCTYPE that declares entities is
 * refused outright (they can expand without bound — "billion laughs" — or name other files), and
 * a reference to an entity the file does not define is malformed XML. Anything it cannot read
 * whole is refused naming the line and column, so nothing half-read is imported.
 */
export interface XmlElement {
  /** The local name (without prefix). */
  name: string;
  /** The namespace URI ("" when none). */
  namespace: string;
  /** Attributes by local name (xml:lang is "lang", xlink:href is "href"). */
  attributes: Record<string, string>;
  children: XmlNode[];
  /** The line its start tag is on. */
  line: number;
}

export type XmlNode = XmlElement | string;

/** Characters handed to the parser per step: the caller gives the event loop a turn between steps. */
const charactersPerStep = 64 * 1024;

/** Elements nested deeper than this are refused: no archival description needs it, and it bounds recursion. */
export const maxXmlDepth = 200;

/**
 * A file the reader refuses: an AppError bad_request whose message an import shows as is, with
 * the line and the bare reason apart for readers that list problems by line (OHMS transcripts).
 */
export class XmlRefusal extends AppError {
  constructor(
    readonly line: number,
    readonly reason: string,
    message = `Line ${line}: ${reason}`,
  ) {
    super("bad_request", message);
  }
}

/**
 * Parses the text in steps (yielding between them), returning the root element. Throws
 * XmlRefusal for malformed XML, entity declarations and excessive nesting.
 */
export function* readXmlSteps(text: string): Generator<void, XmlElement, void> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;

  // A refusal thrown by a handler leaves write() at once, before anything further is read.
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/.test(doctype)) {
      throw new XmlRefusal(
        parser.line,
        "the file's DOCTYPE declares entities (<!ENTITY …>), which Mnemo does not read: they can expand without bound or point at other files. Remove the DOCTYPE (or its entity declarations) and import the file again.",
      );
    }
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    if (stack.length >= maxXmlDepth) {
      throw new XmlRefusal(parser.line, `elements are nested more than ${maxXmlDepth} deep; Mnemo does not read such files.`);
    }
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) {
      // Namespace declarations are not attributes of the description.
      if (attribute.prefix === "xmlns" || attribute.name === "xmlns") continue;
      attributes[attribute.local] = attribute.value;
    }
    const element: XmlElement = { name: tag.local, namespace: tag.uri, attributes, children: [], line: parser.line };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on("closetag", () => {
    stack.pop();
  });
  const addText = (value: string) => {
    const parent = stack[stack.length - 1];
    if (!parent || value === "") return;
    const last = parent.children[parent.children.length - 1];
    if (typeof last === "string") parent.children[parent.children.length - 1] = last + value;
    else parent.children.push(value);
  };
  parser.on("text", addText);
  parser.on("cdata", addText);

  try {
    for (let start = 0; start < text.length;) {
      const end = pieceEnd(text, start, charactersPerStep);
      parser.write(text.slice(start, end));
      start = end;
      if (start < text.length) yield;
    }
    parser.close();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw malformed(error, parser);
  }
  // Set by the opentag handler, which the compiler does not follow.
  const found = root as XmlElement | null;
  if (!found) throw new XmlRefusal(1, "the file holds no XML element.", "The file holds no XML element.");
  return found;
}

/** readXmlSteps in one go, for a file small enough not to need the event loop's turns. */
export function readXml(text: string): XmlElement {
  const steps = readXmlSteps(text);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** saxes reports "line:column: message"; the user reads "line L, column C". */
function malformed(error: unknown, parser: { line: number; column: number }): XmlRefusal {
  const raw = error instanceof Error ? error.message : String(error);
  const located = /^(\d+):(\d+): (.*)$/s.exec(raw);
  const [line, column, message] = located ? [Number(located[1]), located[2], located[3] ?? ""] : [parser.line, String(parser.column), raw];
  const bare = message.replace(/\.$/, "");
  // HTML's &nbsp; or &eacute; in an XML file: say which references XML has.
  const problem = bare === "undefined entity" ? `${bare} (XML has only &amp; &lt; &gt; &quot; &apos; and numeric references such as &#233;)` : bare;
  return new XmlRefusal(
    line,
    `the XML is not well-formed at column ${column}: ${problem}.`,
    `The XML is not well-formed: line ${line}, column ${column}: ${problem}. Nothing was imported.`,
  );
}

/** The element children of an element, optionally only those with one of the local names. */
export function childElements(element: XmlElement, ...names: string[]): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child !== "string" && (names.length === 0 || names.includes(child.name))) result.push(child);
  }
  return result;
}

export function firstChild(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  return element ? childElements(element, ...names)[0] : undefined;
}

/** Descendant elements with one of the names, in document order (not looking inside a match). */
export function descendants(element: XmlElement, names: readonly string[]): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === "string") continue;
      if (names.includes(child.name)) found.push(child);
      else walk(child);
    }
  };
  walk(element);
  return found;
}

/**
 * All the text inside, whitespace collapsed; an element named in `skip` (a heading) is left out.
 * Inline markup adds no space (`Ca<emph>t</emph>` is "Cat"): parts are joined by their readers.
 */
export function plainText(element: XmlElement | undefined, skip: readonly string[] = []): string {
  if (!element) return "";
  const parts: string[] = [];
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === "string") parts.push(child);
      else if (!skip.includes(child.name)) walk(child);
    }
  };
  walk(element);
  return collapse(parts.join(""));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** All the text inside, exactly as written (line breaks kept): for formats whose text has lines. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => (typeof child === "string" ? child : textContent(child))).join("");
}

/** The first element named `name` anywhere below `element`, depth first. */
export function findElement(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of childElements(element)) {
    if (child.name === name) return child;
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}

/** Block elements of EAD3 and EAC-CPF prose (compared in lower case): each becomes a paragraph. */
const blockNames = new Set([
  "p",
  "item",
  "list",
  "chronlist",
  "chronitem",
  "chronitemset",
  "blockquote",
  "table",
  "row",
  "defitem",
  "citation",
  "outline",
  "level",
  "head",
  "head01",
  "head02",
  "head03",
]);

/**
 * Prose as paragraphs separated by a blank line: every <p>, list item or chronology entry is its
 * own paragraph (a chronology entry as "date: event"); whitespace inside a paragraph collapsed.
 * Headings (<head>) are left out: "Scope and Contents" is the element's name, not its content.
 */
export function proseText(element: XmlElement | undefined): string {
  if (!element) return "";
  const paragraphs: string[] = [];
  let current = "";
  const flush = () => {
    const paragraph = collapse(current);
    if (paragraph) paragraphs.push(paragraph);
    current = "";
  };
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === "string") {
        current += child;
        continue;
      }
      const name = child.name.toLowerCase();
      if (name === "head") continue;
      if (!blockNames.has(name)) {
        // Inline markup (<emph>, <ref>, <persname>) is read as the text it holds.
        walk(child);
        continue;
      }
      flush();
      if (name === "chronitem") current = childElements(child).map(chronologyPart).filter(Boolean).join(": ");
      else walk(child);
      flush();
    }
  };
  walk(element);
  flush();
  return paragraphs.join("\n\n");
}

/** A chronology entry's date (a range as "from – to") or event. */
function chronologyPart(element: XmlElement): string {
  if (element.name.toLowerCase() !== "daterange") return plainText(element);
  return childElements(element)
    .map((end) => plainText(end))
    .filter(Boolean)
    .join(" – ");
}

/** An attribute's value, trimmed ("" when absent). */
export function attribute(element: XmlElement | undefined, name: string): string {
  return element?.attributes[name]?.trim() ?? "";
}

/** Whether a value is an absolute http(s) URI, the kind an authority link column takes. */
export function isHttpUri(value: string): boolean {
  return /^https?:\/\/\S+$/i.test(value.trim());
}

/** EDTF's qualifier for EAD3's and EAC-CPF's @certainty, on a single date that has none. */
export function withCertainty(date: string, certainty: string): string {
  const qualifier = ({ approximate: "~", uncertain: "?", "approximate-and-uncertain": "%" } as Record<string, string>)[certainty];
  return qualifier && /^-?\d[\d-]*$/.test(date) ? `${date}${qualifier}` : date;
}
