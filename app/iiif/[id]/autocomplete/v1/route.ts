import { iiifSearchRoute } from "@/lib/api/iiif-search-routes";

/** Content Search 1.0 autocomplete: a search:TermList of the record's own words that begin with `?q=`. */
export const GET = iiifSearchRoute("autocomplete", 1);
