import { presentation2Context, searchContext1, searchContext2 } from "./content-search";
import { type CanvasExtent, fragmentProblem } from "./validate-presentation";

/**
 * Checks Content Search answers against the shapes of the specifications' examples
 * (https://iiif.io/api/search/2.0/, /1.0/): the context, id and type; annotations with ids, a
 * motivation, a text body and a target on one of the Manifest's Canvases (`canvases`, from
 * manifestCanvases) whose `#t=`/`#xywh=` fragment fits it; 2.0's highlighting or contextualizing
 * annotations pointing at an annotation of the page with TextQuoteSelectors; 1.0's hits naming
 * resources of the list; `ignored` as a list of parameter names; autocomplete terms. Every problem
 * comes back with its JSON path; none is a valid answer.
 */
type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const httpUrl = /^https?:\/\/[^\s/?#]+\S*$/;

class Checks {
  readonly problems: string[] = [];

  problem(path: string, message: string) {
    this.problems.push(`${path}: ${message}`);
  }

  url(value: unknown, path: string): string | undefined {
    if (typeof value === "string" && httpUrl.test(value)) return value;
    this.problem(path, "must be an http(s) URL");
    return undefined;
  }

  list(value: unknown, path: string): unknown[] {
    if (Array.isArray(value)) return value;
    this.problem(path, "must be a list");
    return [];
  }

  text(value: unknown, path: string, options: { optional?: boolean; nonEmpty?: boolean } = {}) {
    if (value === undefined && options.optional) return;
    if (typeof value !== "string" || (options.nonEmpty && value === ""))
      this.problem(path, options.nonEmpty ? "must be a non-empty string" : "must be a string");
  }

  ignored(value: unknown, path: string) {
    if (value === undefined) return;
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) this.problem(path, "must be a list of parameter names");
  }

  target(value: unknown, path: string, canvases: ReadonlyMap<string, CanvasExtent>) {
    if (typeof value !== "string") return this.problem(path, "must be a Canvas URL, with a fragment or without");
    const canvas = canvases.get(value.split("#")[0]!);
    if (!canvas) return this.problem(path, `must be a Canvas of the Manifest (got ${value})`);
    const problem = fragmentProblem(value, canvas);
    if (problem) this.problem(path, problem);
  }

  count(value: unknown, path: string) {
    if (value !== undefined && !(Number.isInteger(value) && (value as number) > 0)) this.problem(path, "must be a positive whole number");
  }
}

function resultOf(checks: Checks): string[] {
  return checks.problems;
}

/** A Content Search 2.0 AnnotationPage of hits. */
export function validateSearchPage2(answer: unknown, canvases: ReadonlyMap<string, CanvasExtent>): string[] {
  const checks = new Checks();
  if (!isObject(answer)) return ["$: must be a JSON object"];
  const contexts = Array.isArray(answer["@context"]) ? answer["@context"] : [answer["@context"]];
  if (!contexts.includes(searchContext2)) checks.problem("$.@context", `must be (or include) ${searchContext2}`);
  checks.url(answer.id, "$.id");
  if (answer.type !== "AnnotationPage") checks.problem("$.type", 'must be "AnnotationPage"');
  checks.ignored(answer.ignored, "$.ignored");
  const ids = new Set<string>();
  checks.list(answer.items, "$.items").forEach((annotation, index) => {
    const path = `$.items[${index}]`;
    if (!isObject(annotation)) return checks.problem(path, "must be an Annotation");
    const id = checks.url(annotation.id, `${path}.id`);
    if (id && ids.has(id)) checks.problem(`${path}.id`, "must be unique");
    if (id) ids.add(id);
    if (annotation.type !== "Annotation") checks.problem(`${path}.type`, 'must be "Annotation"');
    checks.text(annotation.motivation, `${path}.motivation`, { nonEmpty: true });
    const body = annotation.body;
    if (!isObject(body) || body.type !== "TextualBody") checks.problem(`${path}.body`, "must be a TextualBody");
    else {
      checks.text(body.value, `${path}.body.value`);
      if (body.format !== undefined && body.format !== "text/plain" && body.format !== "text/html")
        checks.problem(`${path}.body.format`, "must be text/plain or text/html");
    }
    checks.target(annotation.target, `${path}.target`, canvases);
  });
  if (answer.annotations !== undefined) {
    checks.list(answer.annotations, "$.annotations").forEach((page, pageIndex) => {
      const pagePath = `$.annotations[${pageIndex}]`;
      if (!isObject(page) || page.type !== "AnnotationPage") return checks.problem(pagePath, "must be an AnnotationPage");
      checks.list(page.items, `${pagePath}.items`).forEach((mark, index) => {
        const path = `${pagePath}.items[${index}]`;
        if (!isObject(mark)) return checks.problem(path, "must be an Annotation");
        checks.url(mark.id, `${path}.id`);
        if (mark.type !== "Annotation") checks.problem(`${path}.type`, 'must be "Annotation"');
        if (mark.motivation !== "highlighting" && mark.motivation !== "contextualizing")
          checks.problem(`${path}.motivation`, 'must be "highlighting" or "contextualizing"');
        const targets = Array.isArray(mark.target) ? mark.target : [mark.target];
        targets.forEach((target, targetIndex) => {
          const targetPath = Array.isArray(mark.target) ? `${path}.target[${targetIndex}]` : `${path}.target`;
          if (!isObject(target) || target.type !== "SpecificResource") return checks.problem(targetPath, "must be a SpecificResource");
          if (typeof target.source !== "string" || !ids.has(target.source)) checks.problem(`${targetPath}.source`, "must be the id of an annotation in items");
          checks.list(target.selector, `${targetPath}.selector`).forEach((selector, selectorIndex) => {
            const selectorPath = `${targetPath}.selector[${selectorIndex}]`;
            if (!isObject(selector) || selector.type !== "TextQuoteSelector") return checks.problem(selectorPath, "must be a TextQuoteSelector");
            checks.text(selector.exact, `${selectorPath}.exact`, { nonEmpty: true });
            checks.text(selector.prefix, `${selectorPath}.prefix`, { optional: true });
            checks.text(selector.suffix, `${selectorPath}.suffix`, { optional: true });
          });
        });
      });
    });
  }
  return resultOf(checks);
}

/** A Content Search 1.0 `sc:AnnotationList` of hits. */
export function validateSearchList1(answer: unknown, canvases: ReadonlyMap<string, CanvasExtent>): string[] {
  const checks = new Checks();
  if (!isObject(answer)) return ["$: must be a JSON object"];
  const contexts = answer["@context"];
  if (!Array.isArray(contexts) || contexts[0] !== presentation2Context || contexts[1] !== searchContext1) {
    checks.problem("$.@context", `must be [${presentation2Context}, ${searchContext1}] (with hits, both, in that order)`);
  }
  checks.url(answer["@id"], "$.@id");
  if (answer["@type"] !== "sc:AnnotationList") checks.problem("$.@type", 'must be "sc:AnnotationList"');
  if (answer.within !== undefined) {
    const layer = answer.within;
    if (!isObject(layer) || layer["@type"] !== "sc:Layer") checks.problem("$.within", "must be an sc:Layer");
    else {
      if (layer.total !== undefined && !(Number.isInteger(layer.total) && (layer.total as number) >= 0))
        checks.problem("$.within.total", "must be a whole number");
      checks.ignored(layer.ignored, "$.within.ignored");
    }
  }
  const ids = new Set<string>();
  checks.list(answer.resources, "$.resources").forEach((annotation, index) => {
    const path = `$.resources[${index}]`;
    if (!isObject(annotation)) return checks.problem(path, "must be an oa:Annotation");
    const id = checks.url(annotation["@id"], `${path}.@id`);
    if (id) ids.add(id);
    if (annotation["@type"] !== "oa:Annotation") checks.problem(`${path}.@type`, 'must be "oa:Annotation"');
    checks.text(annotation.motivation, `${path}.motivation`, { nonEmpty: true });
    const resource = annotation.resource;
    if (!isObject(resource) || resource["@type"] !== "cnt:ContentAsText") checks.problem(`${path}.resource`, "must be a cnt:ContentAsText");
    else checks.text(resource.chars, `${path}.resource.chars`);
    checks.target(annotation.on, `${path}.on`, canvases);
  });
  if (answer.hits !== undefined) {
    checks.list(answer.hits, "$.hits").forEach((hit, index) => {
      const path = `$.hits[${index}]`;
      if (!isObject(hit) || hit["@type"] !== "search:Hit") return checks.problem(path, "must be a search:Hit");
      const named = checks.list(hit.annotations, `${path}.annotations`);
      if (named.length === 0 || named.some((id) => typeof id !== "string" || !ids.has(id)))
        checks.problem(`${path}.annotations`, "must name resources of the list");
      for (const key of ["match", "before", "after"]) checks.text(hit[key], `${path}.${key}`, { optional: true });
    });
  }
  return resultOf(checks);
}

/** An autocomplete 2.0 TermPage. */
export function validateTermPage2(answer: unknown): string[] {
  const checks = new Checks();
  if (!isObject(answer)) return ["$: must be a JSON object"];
  if (answer["@context"] !== searchContext2) checks.problem("$.@context", `must be ${searchContext2}`);
  checks.url(answer.id, "$.id");
  if (answer.type !== "TermPage") checks.problem("$.type", 'must be "TermPage"');
  checks.ignored(answer.ignored, "$.ignored");
  checks.list(answer.items, "$.items").forEach((term, index) => {
    const path = `$.items[${index}]`;
    if (!isObject(term)) return checks.problem(path, "must be a Term");
    checks.text(term.value, `${path}.value`, { nonEmpty: true });
    checks.count(term.total, `${path}.total`);
  });
  return resultOf(checks);
}

/** An autocomplete 1.0 `search:TermList`. */
export function validateTermList1(answer: unknown): string[] {
  const checks = new Checks();
  if (!isObject(answer)) return ["$: must be a JSON object"];
  if (answer["@context"] !== searchContext1) checks.problem("$.@context", `must be ${searchContext1}`);
  checks.url(answer["@id"], "$.@id");
  if (answer["@type"] !== undefined && answer["@type"] !== "search:TermList") checks.problem("$.@type", 'must be "search:TermList"');
  checks.ignored(answer.ignored, "$.ignored");
  checks.list(answer.terms, "$.terms").forEach((term, index) => {
    const path = `$.terms[${index}]`;
    if (!isObject(term)) return checks.problem(path, "must be a term");
    checks.text(term.match, `${path}.match`, { nonEmpty: true });
    checks.url(term.url, `${path}.url`);
    checks.count(term.count, `${path}.count`);
  });
  return resultOf(checks);
}
