import { decodeEntities, type FileProblem } from "./file-problems";

/**
 * A small, strict-enough XML reader for the files archives export (OHMS), with no dependency:
 * elements, attributes, text, CDATA, comments and processing instructions. It is safe by
 * construction: no DTD is read (a DOCTYPE with an internal subset is refused, so no entity can
 * be declared), only XML's five entities and numeric references are decoded, nothing is
 * fetched, and nesting depth and element count are bounded. Names lose their namespace prefix
 * (OHMS files come with and without `xmlns`/prefixes). Line ends are normalised as XML does.
 */
export interface XmlElement {
  name: string;
  /** 1-based line of the start tag. */
  line: number;
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | { text: string; line: number };

const maxDepth = 64;
const maxElements = 200_000;
const namePattern = /^[A-Za-z_][\w.\-:]*/;
const attributePattern = /^\s+([A-Za-z_][\w.\-:]*)\s*=\s*("[^"<]*"|'[^'<]*')/;

export function parseXml(source: string): { root: XmlElement | null; problems: FileProblem[] } {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const problems: FileProblem[] = [];
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  let position = 0;
  let line = 1;
  const advance = (to: number) => {
    for (let index = position; index < to; index++) if (text.charCodeAt(index) === 10) line++;
    position = to;
  };
  const fail = (message: string) => {
    problems.push({ line, message });
    return { root: null, problems };
  };
  const decode = (raw: string, at: number) =>
    decodeEntities(raw, { onUnknown: (entity, offset) => problems.push({ line: at + (raw.slice(0, offset).match(/\n/g)?.length ?? 0), message: `unknown entity ${entity}: only &amp; &lt; &gt; &quot; &apos; and numeric references are read.` }) });

  while (position < text.length) {
    const open = text.indexOf("<", position);
    const textEnd = open < 0 ? text.length : open;
    if (textEnd > position) {
      const raw = text.slice(position, textEnd);
      const current = stack.at(-1);
      if (current) current.children.push({ text: decode(raw, line), line });
      else if (raw.trim()) return fail("text outside the root element.");
      advance(textEnd);
      if (open < 0) break;
    }
    const rest = text.slice(position, position + 9);
    if (rest.startsWith("<?")) {
      const end = text.indexOf("?>", position);
      if (end < 0) return fail("a processing instruction is not closed with “?>”.");
      advance(end + 2);
    } else if (rest.startsWith("<!--")) {
      const end = text.indexOf("-->", position + 4);
      if (end < 0) return fail("a comment is not closed with “-->”.");
      advance(end + 3);
    } else if (rest.startsWith("<![CDATA[")) {
      const end = text.indexOf("]]>", position);
      if (end < 0) return fail("a CDATA section is not closed with “]]>”.");
      const current = stack.at(-1);
      if (!current) return fail("a CDATA section outside the root element.");
      current.children.push({ text: text.slice(position + 9, end), line });
      advance(end + 3);
    } else if (rest.startsWith("<!DOCTYPE") || rest.startsWith("<!doctype")) {
      const end = text.indexOf(">", position);
      const declaration = end < 0 ? "" : text.slice(position, end);
      if (end < 0) return fail("a DOCTYPE is not closed with “>”.");
      if (declaration.includes("[")) return fail("a DOCTYPE with declarations is not accepted: entities are never expanded.");
      advance(end + 1);
    } else if (rest.startsWith("<!")) {
      return fail("unexpected “<!”: only comments, CDATA and a plain DOCTYPE are read.");
    } else if (rest.startsWith("</")) {
      const end = text.indexOf(">", position);
      const name = end < 0 ? "" : text.slice(position + 2, end).trim();
      const current = stack.pop();
      if (end < 0 || !current) return fail(`an end tag “</${name}>” with no element open.`);
      if (localName(name) !== current.name) return fail(`“</${name}>” closes <${current.name}> opened on line ${current.line}.`);
      advance(end + 1);
    } else {
      const startLine = line;
      const name = namePattern.exec(text.slice(position + 1, position + 200))?.[0];
      if (!name) return fail("“<” that starts no tag: write it as &lt;.");
      let cursor = position + 1 + name.length;
      const attributes: Record<string, string> = {};
      for (;;) {
        const attribute = attributePattern.exec(text.slice(cursor, cursor + 10_000));
        if (!attribute) break;
        attributes[localName(attribute[1] ?? "")] = decode((attribute[2] ?? "").slice(1, -1), startLine);
        cursor += attribute[0].length;
      }
      const close = /^\s*(\/?)>/.exec(text.slice(cursor, cursor + 200));
      if (!close) return fail(`the tag <${name}> is not closed with “>”.`);
      const element: XmlElement = { name: localName(name), line: startLine, attributes, children: [] };
      if (++elements > maxElements) return fail(`more than ${maxElements} elements.`);
      const parent = stack.at(-1);
      if (parent) parent.children.push(element);
      else if (root) return fail("a second root element.");
      else root = element;
      if (!close[1]) {
        if (stack.length >= maxDepth) return fail(`elements nested more than ${maxDepth} deep.`);
        stack.push(element);
      }
      advance(cursor + close[0].length);
    }
  }
  const unclosed = stack.at(-1);
  if (unclosed) return fail(`<${unclosed.name}> opened on line ${unclosed.line} is never closed.`);
  if (!root) return fail("the file holds no XML element.");
  return { root, problems };
}

function localName(name: string): string {
  return name.slice(name.lastIndexOf(":") + 1);
}

/** The element's text, its descendants' included, in document order. */
export function textContent(element: XmlElement): string {
  return element.children.map((child) => ("text" in child ? child.text : textContent(child))).join("");
}

/** The first child element named `name`, if any. */
export function childElement(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((child): child is XmlElement => "name" in child && child.name === name);
}

export function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => "name" in child && child.name === name);
}

/** The first element named `name` anywhere below `element`, depth first. */
export function findElement(element: XmlElement, name: string): XmlElement | undefined {
  for (const child of element.children) {
    if (!("name" in child)) continue;
    if (child.name === name) return child;
    const found = findElement(child, name);
    if (found) return found;
  }
  return undefined;
}
