import { iiifSearchRoute } from "@/lib/api/iiif-search-routes";

/** Content Search 2.0 autocomplete: a TermPage of the record's own words that begin with `?q=`. */
export const GET = iiifSearchRoute("autocomplete", 2);
