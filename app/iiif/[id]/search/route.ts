import { iiifSearchRoute } from "@/lib/api/iiif-search-routes";

/** Content Search 2.0: an AnnotationPage of the record's hits (`?q=`, `motivation`) on the Manifest's Canvases. */
export const GET = iiifSearchRoute("search", 2);
