/**
 * Authority links: the shared vocabularies archives and museums link people, places, objects'
 * types, materials and periods to. Pure: a URI written in any of the forms people copy from the
 * authorities' web pages is recognised and stored in the authority's own canonical form; nothing
 * is looked up (this runs offline), so a link's label is what the cataloguer wrote.
 */
export const authoritySchemes = ["wikidata", "aat", "tgn", "ulan", "geonames", "viaf", "nomisma", "ocre", "crro"] as const;
export type AuthorityScheme = (typeof authoritySchemes)[number];

/** A stored authority link: the canonical URI and the label shown and searched. */
export interface AuthorityLink {
  uri: string;
  label?: string;
}

interface SchemeRule {
  name: string;
  /** What a cataloguer might paste; group 1 is the identifier. Matched against the whole value. */
  patterns: RegExp[];
  canonical: (id: string) => string;
  /** An example shown in errors. */
  example: string;
  /** Whether the authority names places (Dublin Core coverage) rather than subjects. */
  places: boolean;
}

const rules: Record<AuthorityScheme, SchemeRule> = {
  wikidata: {
    name: "Wikidata",
    patterns: [/^https?:\/\/(?:www\.|m\.)?wikidata\.org\/(?:entity|wiki)\/(Q[1-9]\d{0,11})(?:[#?].*)?$/i],
    canonical: (id) => `http://www.wikidata.org/entity/${id.toUpperCase()}`,
    example: "http://www.wikidata.org/entity/Q1492",
    places: false,
  },
  aat: {
    name: "Getty AAT",
    patterns: [/^https?:\/\/vocab\.getty\.edu\/(?:page\/)?aat\/(3\d{8})(?:[./?#].*)?$/i],
    canonical: (id) => `http://vocab.getty.edu/aat/${id}`,
    example: "http://vocab.getty.edu/aat/300015050",
    places: false,
  },
  tgn: {
    name: "Getty TGN",
    patterns: [/^https?:\/\/vocab\.getty\.edu\/(?:page\/)?tgn\/(\d{7,8})(?:[./?#].*)?$/i],
    canonical: (id) => `http://vocab.getty.edu/tgn/${id}`,
    example: "http://vocab.getty.edu/tgn/7008038",
    places: true,
  },
  ulan: {
    name: "Getty ULAN",
    patterns: [/^https?:\/\/vocab\.getty\.edu\/(?:page\/)?ulan\/(5\d{8})(?:[./?#].*)?$/i],
    canonical: (id) => `http://vocab.getty.edu/ulan/${id}`,
    example: "http://vocab.getty.edu/ulan/500115493",
    places: false,
  },
  geonames: {
    name: "GeoNames",
    patterns: [/^https?:\/\/(?:www\.|sws\.)?geonames\.org\/([1-9]\d{0,9})(?:\/.*)?$/i],
    canonical: (id) => `https://sws.geonames.org/${id}/`,
    example: "https://sws.geonames.org/3128760/",
    places: true,
  },
  viaf: {
    name: "VIAF",
    patterns: [/^https?:\/\/(?:www\.)?viaf\.org\/viaf\/([1-9]\d{0,22})(?:\/.*)?$/i],
    canonical: (id) => `http://viaf.org/viaf/${id}`,
    example: "http://viaf.org/viaf/96994048",
    places: false,
  },
  nomisma: {
    name: "Nomisma",
    // Slugs are case-sensitive and mostly lowercase ("athens", "10-Taler", "sur_al-ma'muniyah").
    patterns: [/^https?:\/\/nomisma\.org\/id\/([A-Za-z0-9][A-Za-z0-9_'-]{0,99})(?:[.#?].*)?$/],
    canonical: (id) => `http://nomisma.org/id/${id}`,
    example: "http://nomisma.org/id/athens",
    places: false,
  },
  ocre: {
    name: "OCRE",
    patterns: [/^https?:\/\/numismatics\.org\/ocre\/id\/(ric\.[0-9a-z()._-]{3,100})$/i],
    canonical: (id) => `http://numismatics.org/ocre/id/${id}`,
    example: "http://numismatics.org/ocre/id/ric.1(2).ner.53",
    places: false,
  },
  crro: {
    name: "CRRO",
    // Crawford's numbers as CRRO writes them, letters' case kept: rrc-44.5, rrc-117A.1, rrc-197-8B.1.
    patterns: [/^https?:\/\/numismatics\.org\/crro\/id\/(rrc-[0-9]{1,3}(?:-[0-9]{1,3})?[A-Za-z]?\.[0-9A-Za-z]{1,8})$/],
    canonical: (id) => `http://numismatics.org/crro/id/${id}`,
    example: "http://numismatics.org/crro/id/rrc-44.5",
    places: false,
  },
};

export interface RecognisedAuthority {
  scheme: AuthorityScheme;
  /** The authority's identifier within its scheme ("Q1492", "300015050", "ric.1(2).ner.53"). */
  id: string;
  uri: string;
}

/** The authority a URI belongs to, in canonical form; null for anything else. */
export function recogniseAuthorityUri(written: string, allowed: readonly AuthorityScheme[] = authoritySchemes): RecognisedAuthority | null {
  const value = written.trim();
  if (value.length > 300) return null;
  for (const scheme of allowed) {
    for (const pattern of rules[scheme].patterns) {
      const match = pattern.exec(value);
      if (match) {
        const uri = rules[scheme].canonical(match[1]!);
        return { scheme, id: uri.replace(/\/$/, "").split("/").at(-1)!, uri };
      }
    }
  }
  return null;
}

export function authorityName(scheme: AuthorityScheme): string {
  return rules[scheme].name;
}

/** Whether links to this authority name places (Dublin Core coverage) rather than subjects. */
export function authorityNamesPlaces(scheme: AuthorityScheme): boolean {
  return rules[scheme].places;
}

/** "write a Wikidata or Getty AAT URI, such as http://…": the hint an error ends with. */
export function authorityHint(allowed: readonly AuthorityScheme[] = authoritySchemes): string {
  const names = allowed.map((scheme) => rules[scheme].name);
  const listed = names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : names[0];
  return `write a ${listed} URI, such as ${rules[allowed[0] ?? "wikidata"].example}`;
}

/** A link's label, or "Wikidata Q1492" when the cataloguer gave none. */
export function authorityLabel(link: AuthorityLink): string {
  if (link.label?.trim()) return link.label.trim();
  const recognised = recogniseAuthorityUri(link.uri);
  return recognised ? `${rules[recognised.scheme].name} ${recognised.id}` : link.uri;
}
