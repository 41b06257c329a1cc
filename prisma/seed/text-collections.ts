/**
 * The demo's text collections: oral histories (fiction written for Mnemo, with synthesised
 * audio), publications (fiction), and the people and places they relate to. Data lives in
 * prisma/seed/data/{oral-histories,publications}; see the READMEs there.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TranscriptTurn } from "../../lib/archive/field-definitions";
import type { DemoSection } from "./object-images";

export const languageOptions = ["en", "es", "ca"];

export const oralHistorySection: DemoSection = {
  slug: "oral-histories",
  name: "Oral histories",
  description:
    "Interviews about a valley drowned by a reservoir, a fishing harbour's trades and a mine closure, in English, " +
    "Spanish and Catalan. The interviews are fiction written for the Mnemo demo; the audio is synthesised speech.",
  fields: [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "language", label: "Language", type: "category", options: languageOptions, listed: true },
    { key: "narrator", label: "Narrator", type: "relation", targetSection: "people" },
    { key: "interviewer", label: "Interviewer", type: "relation", targetSection: "people" },
    { key: "place", label: "Place", type: "relation", targetSection: "places" },
    { key: "recordedOn", label: "Recorded on", type: "date" },
    { key: "summary", label: "Summary", type: "longtext" },
    { key: "keywords", label: "Keywords", type: "text" },
    { key: "recording", label: "Recording", type: "media", mediaKind: "audio" },
    { key: "transcript", label: "Transcript", type: "transcript", mediaField: "recording" },
    // Filled by importing an OHMS XML file in the editor; the demo interviews have none.
    { key: "index", label: "Index", type: "segments", mediaField: "recording" },
  ],
};

export const publicationSection: DemoSection = {
  slug: "publications",
  name: "Publications",
  description: "Reports, articles and essays with headings and page markers, and documents kept only as scans. Fiction written for the Mnemo demo.",
  fields: [
    { key: "title", label: "Title", type: "text", required: true, listed: true },
    { key: "authors", label: "Authors", type: "relation", targetSection: "people", multiple: true },
    { key: "language", label: "Language", type: "category", options: languageOptions, listed: true },
    {
      key: "publicationType",
      label: "Type",
      type: "category",
      options: ["article", "report", "book chapter", "guide", "essay", "notice", "newspaper article", "letter"],
      listed: true,
    },
    { key: "publishedIn", label: "Published in", type: "text" },
    { key: "year", label: "Year", type: "date" },
    { key: "abstract", label: "Abstract", type: "longtext" },
    { key: "subjects", label: "Subjects", type: "text" },
    { key: "places", label: "Places mentioned", type: "text" },
    { key: "body", label: "Text", type: "longtext" },
    { key: "scan", label: "Scanned pages", type: "scan" },
  ],
};

export const peopleSection: DemoSection = {
  slug: "people",
  name: "People",
  description: "Narrators, interviewers and authors related to the other collections (fictional persons).",
  fields: [
    { key: "name", label: "Name", type: "text", required: true, listed: true },
    { key: "occupation", label: "Occupation", type: "text", listed: true },
    { key: "born", label: "Born", type: "date" },
    { key: "died", label: "Died", type: "date" },
    { key: "biography", label: "Biography", type: "longtext" },
    { key: "places", label: "Places", type: "relation", targetSection: "places", multiple: true },
  ],
};

export const placeSection: DemoSection = {
  slug: "places",
  name: "Places",
  description: "Villages, harbours, mines and rivers of the oral-history collections (fictional places).",
  fields: [
    { key: "name", label: "Name", type: "text", required: true, listed: true },
    { key: "kind", label: "Kind", type: "category", options: ["village", "town", "harbour", "mine", "reservoir", "river"], listed: true },
    { key: "coordinates", label: "Coordinates", type: "text" },
    { key: "description", label: "Description", type: "longtext" },
  ],
};

export interface Interview {
  key: string;
  project: string;
  title: string;
  language: string;
  narrator: string;
  interviewer: string;
  place: string;
  recordedOn: string;
  summary: string;
  keywords: string[];
  audio: string;
  durationSeconds: number;
  turns: TranscriptTurn[];
}

export interface Person {
  key: string;
  name: string;
  born: string | null;
  died: string | null;
  occupation: string;
  biography: string;
  places?: string[];
}

export interface Place {
  key: string;
  name: string;
  kind: string;
  description: string;
  latitude: number;
  longitude: number;
}

export interface Publication {
  key: string;
  project: string;
  title: string;
  language: string;
  authors: Person[];
  publishedIn: string;
  year: number;
  publicationType: string;
  abstract: string;
  subjects: string[];
  places: string[];
  body: string;
}

/**
 * An archival document kept only as a scan (a printed notice, a press cutting, a leaflet, a
 * letter): `body` is what the paper says, set as page images at seed time and read back by
 * OCR at index time; the record itself holds no typed text of it.
 */
export type ScannedDocument = Omit<Publication, "authors">;

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

export function loadTextCollections(dataDir: string) {
  return {
    interviews: readJson<Interview[]>(join(dataDir, "oral-histories", "interviews.json")),
    people: readJson<Person[]>(join(dataDir, "oral-histories", "people.json")),
    places: readJson<Place[]>(join(dataDir, "oral-histories", "places.json")),
    publications: readJson<Publication[]>(join(dataDir, "publications", "publications.json")),
    scannedDocuments: readJson<ScannedDocument[]>(join(dataDir, "publications", "scanned-documents.json")),
    audioDir: join(dataDir, "oral-histories", "audio"),
  };
}
