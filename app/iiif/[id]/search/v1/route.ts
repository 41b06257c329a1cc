import { iiifSearchRoute } from "@/lib/api/iiif-search-routes";

/** Content Search 1.0 (Mirador 3, the Universal Viewer): an sc:AnnotationList of the record's hits with search:Hit entries. */
export const GET = iiifSearchRoute("search", 1);
