import { presentationContext } from "./presentation";

/**
 * Checks a Presentation 3.0 Manifest, Collection or AnnotationPage against the spec's requirements
 * (https://iiif.io/api/presentation/3.0/): required properties and their types, language maps,
 * Canvas dimensions, annotation targets and Range items that point at the Manifest's own
 * Canvases, time fragments inside a Canvas's duration, unique ids, and the minimal HTML a
 * summary or metadata value may hold. No npm package ships the
 * IIIF JSON schema (it lives in the Python presentation-validator), so the rules are written
 * out here, each as the spec states it; every problem comes back with its JSON path. An
 * AnnotationPage served apart (one a Canvas names by its id) is checked against the Manifest
 * whose Canvases its annotations target.
 */
export function validatePresentation(resource: unknown, options: { manifest?: unknown } = {}): string[] {
  const problems: string[] = [];
  const context = new CheckContext(problems);
  if (!isObject(resource)) return ["$: must be a JSON object"];
  const contexts = Array.isArray(resource["@context"]) ? resource["@context"] : [resource["@context"]];
  if (!contexts.includes(presentationContext)) problems.push(`$.@context: must be (or end with) ${presentationContext}`);
  else if (contexts.at(-1) !== presentationContext) problems.push(`$.@context: ${presentationContext} must come last`);
  if (resource.type === "Manifest") context.manifest(resource, "$");
  else if (resource.type === "Collection") context.collection(resource, "$");
  else if (resource.type === "AnnotationPage") {
    if (options.manifest === undefined) problems.push("$: an AnnotationPage is checked against the Manifest whose Canvases it targets");
    else {
      for (const [id, extent] of manifestCanvases(options.manifest)) context.canvases.set(id, extent);
      context.annotationPage(resource, "$", {});
    }
  } else problems.push(`$.type: must be "Manifest", "Collection" or "AnnotationPage" (got ${JSON.stringify(resource.type)})`);
  return problems;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const httpUrl = /^https?:\/\/[^\s/?#]+[^\s]*$/;
/** The spec: rights is one of Creative Commons or RightsStatements.org, or a URI registered as an extension. */
const rightsUrl = /^https?:\/\/(creativecommons\.org\/(licenses|publicdomain)\/|rightsstatements\.org\/vocab\/)/;
const timeFragment = /#t=(\d+(?:\.\d+)?)(?:,(\d+(?:\.\d+)?))?$/;

/** The tags and attributes the spec lets a client keep in HTML values (section 4.4). */
const htmlTags = new Set(["a", "b", "br", "i", "img", "p", "small", "span", "sub", "sup"]);
const htmlAttributes: Record<string, Set<string>> = { a: new Set(["href"]), img: new Set(["src", "alt"]) };

/**
 * Why a string that the spec reads as HTML (it starts with `<` and ends with `>`) breaks its rules,
 * or null: well-formed XML in one element, only the tags and attributes above, links to http(s)
 * or mailto only, no comments, CDATA or processing instructions, only XML's own entities.
 */
export function htmlValueProblem(text: string): string | null {
  if (!/^<[\s\S]*>$/.test(text)) return null;
  if (/<!|<\?/.test(text)) return "HTML must not hold comments, CDATA or processing instructions";
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/.test(text)) return "HTML must escape & (well-formed XML)";
  const open: string[] = [];
  let roots = 0;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[a-zA-Z_:][\w:.-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
  for (let index = 0; index < text.length;) {
    const next = text.indexOf("<", index);
    if (next === -1) break;
    if (next > index && open.length === 0) return "HTML must be one element, with no text around it";
    tag.lastIndex = next;
    const match = tag.exec(text);
    if (!match) return `HTML must be well-formed XML (at "${text.slice(next, next + 20)}")`;
    const [, closing, name = "", attributes = "", selfClosing] = match;
    if (!htmlTags.has(name)) return `HTML may not use <${name}> (only ${[...htmlTags].join(", ")})`;
    if (closing) {
      if (open.pop() !== name) return `HTML must be well-formed XML (</${name}> closes nothing open)`;
    } else {
      if (open.length === 0) roots += 1;
      for (const attribute of attributes.matchAll(/([a-zA-Z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        const [, attributeName = "", double, single] = attribute;
        if (!htmlAttributes[name]?.has(attributeName)) return `HTML may not give <${name}> the attribute ${attributeName}`;
        const value = (double ?? single ?? "").trim();
        if ((attributeName === "href" || attributeName === "src") && !/^(https?:|mailto:)/i.test(value))
          return `HTML links must be http(s) or mailto (got ${JSON.stringify(value.slice(0, 40))})`;
      }
      if (!selfClosing) open.push(name);
    }
    index = tag.lastIndex;
    if (open.length === 0 && index < text.length) return "HTML must be one element, with no text around it";
  }
  if (open.length) return `HTML must be well-formed XML (<${open.at(-1)}> is not closed)`;
  return roots === 1 ? null : "HTML must be one element";
}

/** What a target's fragment must lie within: a Canvas's duration, or its width and height. */
export interface CanvasExtent {
  duration?: number;
  width?: number;
  height?: number;
}

/**
 * Why a target's fragment does not fit its Canvas, or null: `#t=start,end` inside the duration
 * (start before end), `#xywh=x,y,w,h` in whole pixels inside the width and height, or no fragment.
 */
export function fragmentProblem(target: string, canvas: CanvasExtent): string | null {
  if (!target.includes("#")) return null;
  const time = timeFragment.exec(target);
  if (time) {
    const start = Number(time[1]);
    const end = time[2] === undefined ? start : Number(time[2]);
    if (canvas.duration === undefined) return "a time fragment needs a Canvas with a duration";
    if (end < start || end > canvas.duration + 0.001) return `the time fragment must lie within 0–${canvas.duration} s, start before end`;
    return null;
  }
  const region = /#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(target);
  if (!region) return "a fragment must be #t=start,end or #xywh=x,y,w,h";
  const [x, y, w, h] = region.slice(1).map(Number) as [number, number, number, number];
  if (w === 0 || h === 0) return "a region must have a width and a height";
  if (canvas.width !== undefined && canvas.height !== undefined && (x + w > canvas.width || y + h > canvas.height))
    return `the region must lie within the Canvas's ${canvas.width}×${canvas.height}`;
  return null;
}

/** The Canvases of a Manifest with their extents, by id: what search hits may target. */
export function manifestCanvases(manifest: unknown): Map<string, CanvasExtent> {
  const context = new CheckContext([]);
  if (isObject(manifest)) context.manifest(manifest, "$");
  return context.canvases;
}

class CheckContext {
  private readonly ids = new Map<string, string>();
  readonly canvases = new Map<string, CanvasExtent>();

  constructor(private readonly problems: string[]) {}

  private problem(path: string, message: string) {
    this.problems.push(`${path}: ${message}`);
  }

  private id(resource: JsonObject, path: string, options: { unique?: boolean; fragment?: boolean } = {}): string | undefined {
    const id = resource.id;
    if (typeof id !== "string" || !httpUrl.test(id)) {
      this.problem(`${path}.id`, "must be an http(s) URL");
      return undefined;
    }
    if (options.fragment === false && id.includes("#")) this.problem(`${path}.id`, "must not have a fragment");
    if (options.unique) {
      const seen = this.ids.get(id);
      if (seen) this.problem(`${path}.id`, `is also the id of ${seen}`);
      else this.ids.set(id, path);
    }
    return id;
  }

  private type(resource: JsonObject, path: string, expected: string | string[]): void {
    const allowed = Array.isArray(expected) ? expected : [expected];
    if (typeof resource.type !== "string" || !allowed.includes(resource.type))
      this.problem(`${path}.type`, `must be ${allowed.map((item) => `"${item}"`).join(" or ")} (got ${JSON.stringify(resource.type)})`);
  }

  languageMap(value: unknown, path: string): void {
    if (!isObject(value) || Object.keys(value).length === 0) {
      this.problem(path, 'must be a language map: an object of language codes (or "none") to lists of strings');
      return;
    }
    for (const [language, strings] of Object.entries(value)) {
      if (!/^([a-zA-Z]{2,3}(-[a-zA-Z0-9]{1,8})*|none)$/.test(language))
        this.problem(`${path}.${language}`, 'must be keyed by a BCP 47 language code or "none"');
      if (!Array.isArray(strings) || strings.some((item) => typeof item !== "string")) this.problem(`${path}.${language}`, "must be a list of strings");
    }
  }

  private optionalLanguageMap(resource: JsonObject, key: string, path: string) {
    if (resource[key] !== undefined) this.languageMap(resource[key], `${path}.${key}`);
  }

  /** A language map whose strings may be HTML (summary, metadata values): the HTML checked. */
  private htmlLanguageMap(value: unknown, path: string): void {
    this.languageMap(value, path);
    if (!isObject(value)) return;
    for (const [language, strings] of Object.entries(value)) {
      if (!Array.isArray(strings)) continue;
      strings.forEach((item, index) => {
        const problem = typeof item === "string" ? htmlValueProblem(item) : null;
        if (problem) this.problem(`${path}.${language}[${index}]`, problem);
      });
    }
  }

  private metadataEntry(value: unknown, path: string) {
    if (!isObject(value)) return this.problem(path, "must be an object with label and value");
    this.languageMap(value.label, `${path}.label`);
    this.htmlLanguageMap(value.value, `${path}.value`);
  }

  private descriptive(resource: JsonObject, path: string) {
    if (resource.summary !== undefined) this.htmlLanguageMap(resource.summary, `${path}.summary`);
    if (resource.metadata !== undefined) {
      if (!Array.isArray(resource.metadata)) this.problem(`${path}.metadata`, "must be a list");
      else resource.metadata.forEach((entry, index) => this.metadataEntry(entry, `${path}.metadata[${index}]`));
    }
    if (resource.requiredStatement !== undefined) this.metadataEntry(resource.requiredStatement, `${path}.requiredStatement`);
    if (resource.rights !== undefined && (typeof resource.rights !== "string" || !rightsUrl.test(resource.rights)))
      this.problem(`${path}.rights`, "must be a Creative Commons or RightsStatements.org URL");
    for (const key of ["thumbnail", "homepage", "rendering", "seeAlso", "partOf"]) {
      const list = resource[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        this.problem(`${path}.${key}`, "must be a list");
        continue;
      }
      list.forEach((item, index) => {
        const itemPath = `${path}.${key}[${index}]`;
        if (!isObject(item)) return this.problem(itemPath, "must be an object");
        this.id(item, itemPath);
        if (typeof item.type !== "string") this.problem(`${itemPath}.type`, "must be a string");
        // homepage and rendering are shown to people: they must say what they are.
        if (key === "homepage" || key === "rendering") this.languageMap(item.label, `${itemPath}.label`);
        if (key === "thumbnail") this.body(item, itemPath);
      });
    }
  }

  manifest(resource: JsonObject, path: string) {
    this.id(resource, path, { unique: true, fragment: false });
    this.type(resource, path, "Manifest");
    this.languageMap(resource.label, `${path}.label`);
    this.descriptive(resource, path);
    if (!Array.isArray(resource.items) || resource.items.length === 0) {
      this.problem(`${path}.items`, "must be a list of at least one Canvas");
    } else {
      resource.items.forEach((canvas, index) => this.canvas(canvas, `${path}.items[${index}]`));
      // Annotations are checked once every Canvas is known: they may target any of them.
      resource.items.forEach((canvas, index) => isObject(canvas) && this.canvasAnnotations(canvas, `${path}.items[${index}]`));
    }
    if (resource.service !== undefined) this.services(resource.service, `${path}.service`);
    if (resource.structures !== undefined) {
      if (!Array.isArray(resource.structures)) this.problem(`${path}.structures`, "must be a list of Ranges");
      else resource.structures.forEach((range, index) => this.range(range, `${path}.structures[${index}]`));
    }
  }

  collection(resource: JsonObject, path: string) {
    this.id(resource, path, { fragment: false });
    this.type(resource, path, "Collection");
    this.languageMap(resource.label, `${path}.label`);
    this.descriptive(resource, path);
    if (!Array.isArray(resource.items)) return this.problem(`${path}.items`, "must be a list of Manifests and Collections");
    resource.items.forEach((item, index) => {
      const itemPath = `${path}.items[${index}]`;
      if (!isObject(item)) return this.problem(itemPath, "must be an object");
      this.id(item, itemPath, { unique: true, fragment: false });
      this.type(item, itemPath, ["Manifest", "Collection"]);
      this.languageMap(item.label, `${itemPath}.label`);
      if (item.thumbnail !== undefined) this.descriptive({ thumbnail: item.thumbnail }, itemPath);
    });
  }

  private canvas(value: unknown, path: string) {
    if (!isObject(value)) return this.problem(path, "must be a Canvas object");
    const id = this.id(value, path, { unique: true, fragment: false });
    this.type(value, path, "Canvas");
    this.optionalLanguageMap(value, "label", path);
    this.descriptive(value, path);
    const { width, height, duration } = value;
    const positiveInteger = (item: unknown) => Number.isInteger(item) && (item as number) > 0;
    if ((width === undefined) !== (height === undefined)) this.problem(path, "must have both width and height, or neither");
    if (width !== undefined && !positiveInteger(width)) this.problem(`${path}.width`, "must be a positive integer");
    if (height !== undefined && !positiveInteger(height)) this.problem(`${path}.height`, "must be a positive integer");
    if (duration !== undefined && !(typeof duration === "number" && Number.isFinite(duration) && duration > 0))
      this.problem(`${path}.duration`, "must be a positive number");
    if (width === undefined && duration === undefined) this.problem(path, "must have width and height, or a duration");
    if (id)
      this.canvases.set(id, {
        duration: typeof duration === "number" ? duration : undefined,
        width: typeof width === "number" ? width : undefined,
        height: typeof height === "number" ? height : undefined,
      });
    if (!Array.isArray(value.items)) return this.problem(`${path}.items`, "must be a list of AnnotationPages");
  }

  private canvasAnnotations(canvas: JsonObject, path: string) {
    const canvasId = typeof canvas.id === "string" ? canvas.id : "";
    if (Array.isArray(canvas.items)) {
      canvas.items.forEach((page, index) => this.annotationPage(page, `${path}.items[${index}]`, { painting: canvasId }));
    }
    if (canvas.annotations !== undefined) {
      if (!Array.isArray(canvas.annotations)) this.problem(`${path}.annotations`, "must be a list of AnnotationPages");
      else canvas.annotations.forEach((page, index) => this.annotationPage(page, `${path}.annotations[${index}]`, { reference: true }));
    }
  }

  /** An AnnotationPage; a Canvas's `annotations` may name one by its id alone (`reference`), its items served apart. */
  annotationPage(value: unknown, path: string, options: { painting?: string; reference?: boolean }) {
    if (!isObject(value)) return this.problem(path, "must be an AnnotationPage object");
    this.id(value, path, { unique: true });
    this.type(value, path, "AnnotationPage");
    this.optionalLanguageMap(value, "label", path);
    if (options.reference && value.items === undefined) return;
    if (!Array.isArray(value.items)) return this.problem(`${path}.items`, "must be a list of Annotations");
    value.items.forEach((annotation, index) => this.annotation(annotation, `${path}.items[${index}]`, options));
  }

  private annotation(value: unknown, path: string, options: { painting?: string }) {
    if (!isObject(value)) return this.problem(path, "must be an Annotation object");
    this.id(value, path, { unique: true });
    this.type(value, path, "Annotation");
    if (typeof value.motivation !== "string" && !Array.isArray(value.motivation)) this.problem(`${path}.motivation`, "must be a string");
    if (options.painting !== undefined && value.motivation !== "painting") this.problem(`${path}.motivation`, 'must be "painting" in a Canvas\'s items');
    const target =
      typeof value.target === "string" ? value.target : isObject(value.target) && typeof value.target.id === "string" ? value.target.id : undefined;
    if (!target) this.problem(`${path}.target`, "must be a URL or a resource with an id");
    else {
      const canvasId = this.targetCanvas(target, `${path}.target`);
      if (options.painting !== undefined && canvasId !== options.painting) this.problem(`${path}.target`, "a painting annotation must target its own Canvas");
    }
    if (value.body === undefined) this.problem(`${path}.body`, "is required");
    else
      for (const [index, body] of (Array.isArray(value.body) ? value.body : [value.body]).entries())
        this.body(body, Array.isArray(value.body) ? `${path}.body[${index}]` : `${path}.body`);
  }

  /** A target or Range item: a Canvas of this Manifest, whole or a fragment inside its extent. */
  private targetCanvas(target: string, path: string): string | undefined {
    const canvasId = target.split("#")[0]!;
    const canvas = this.canvases.get(canvasId);
    if (!canvas) {
      this.problem(path, `must be a Canvas of this Manifest (got ${target})`);
      return undefined;
    }
    const problem = fragmentProblem(target, canvas);
    if (problem) this.problem(path, problem);
    return canvasId;
  }

  private body(value: unknown, path: string) {
    if (!isObject(value)) return this.problem(path, "must be a resource object");
    if (value.type === "TextualBody") {
      if (typeof value.value !== "string") this.problem(`${path}.value`, "must be a string");
      if (value.language !== undefined && typeof value.language !== "string") this.problem(`${path}.language`, "must be a language code");
      return;
    }
    this.id(value, path);
    this.type(value, path, ["Image", "Sound", "Video", "Text", "Dataset", "Model"]);
    if (typeof value.format !== "string" || !/^[a-z]+\/[\w.+-]+/.test(value.format)) this.problem(`${path}.format`, "must be a media type");
    if ((value.type === "Sound" || value.type === "Video") && !(typeof value.duration === "number" && value.duration > 0))
      this.problem(`${path}.duration`, "a Sound or Video must have a positive duration");
    if (value.type === "Image" && (!Number.isInteger(value.width) || !Number.isInteger(value.height)))
      this.problem(path, "an Image should have integer width and height");
    if (value.service !== undefined) {
      if (!Array.isArray(value.service)) return this.problem(`${path}.service`, "must be a list");
      value.service.forEach((service, index) => {
        const servicePath = `${path}.service[${index}]`;
        if (!isObject(service)) return this.problem(servicePath, "must be an object");
        this.id(service, servicePath);
        if (typeof service.type !== "string") this.problem(`${servicePath}.type`, "must be a string");
        if (service.type === "ImageService3" && !["level0", "level1", "level2"].includes(String(service.profile)))
          this.problem(`${servicePath}.profile`, "must be level0, level1 or level2");
      });
    }
  }

  /**
   * A resource's services: each with `id` and `type` (Presentation 3), or an older API's `@id` and
   * `@type` (the spec's rule for version 2 services); a Content Search service as its spec declares it,
   * its autocomplete nested inside.
   */
  private services(value: unknown, path: string) {
    if (!Array.isArray(value)) return this.problem(path, "must be a list");
    value.forEach((service, index) => {
      const servicePath = `${path}[${index}]`;
      if (!isObject(service)) return this.problem(servicePath, "must be an object");
      const older = service["@id"] !== undefined;
      const id = older ? service["@id"] : service.id;
      const type = older ? service["@type"] : service.type;
      if (typeof id !== "string" || !httpUrl.test(id)) this.problem(`${servicePath}.${older ? "@id" : "id"}`, "must be an http(s) URL");
      if (typeof type !== "string") this.problem(`${servicePath}.${older ? "@type" : "type"}`, "must be a string");
      if (
        type === "SearchService1" &&
        (service.profile !== "http://iiif.io/api/search/1/search" || service["@context"] !== "http://iiif.io/api/search/1/context.json")
      ) {
        this.problem(servicePath, "a SearchService1 has the search 1 @context and profile");
      }
      if (type === "AutoCompleteService1" && service.profile !== "http://iiif.io/api/search/1/autocomplete")
        this.problem(`${servicePath}.profile`, "must be the autocomplete 1 profile");
      if ((type === "SearchService2" || type === "SearchService1") && service.service !== undefined) this.services(service.service, `${servicePath}.service`);
    });
  }

  private range(value: unknown, path: string) {
    if (!isObject(value)) return this.problem(path, "must be a Range object");
    this.id(value, path, { unique: true, fragment: false });
    this.type(value, path, "Range");
    this.languageMap(value.label, `${path}.label`);
    this.descriptive(value, path);
    if (!Array.isArray(value.items)) return this.problem(`${path}.items`, "must be a list of Canvases and Ranges");
    value.items.forEach((item, index) => {
      const itemPath = `${path}.items[${index}]`;
      if (!isObject(item)) return this.problem(itemPath, "must be an object");
      if (item.type === "Range") return this.range(item, itemPath);
      if (item.type !== "Canvas") return this.problem(`${itemPath}.type`, 'must be "Canvas" or "Range"');
      if (typeof item.id !== "string") return this.problem(`${itemPath}.id`, "must be a URL");
      this.targetCanvas(item.id, `${itemPath}.id`);
    });
  }
}
