import type { ObjectContext } from "../../lib/rag/objects/object-context";

/**
 * The demo's object contexts: which image fields carry the visual signal and which fields a
 * curator catalogues as typology, material, period and date. Each collection is compared with
 * itself: a coin's relatives are coins, a jug's are ceramics. (Admins edit these later.)
 */
export const demoObjectContexts: Record<string, ObjectContext> = {
  coins: {
    images: [
      { field: "obverse", view: "obverse" },
      { field: "reverse", view: "reverse" },
    ],
    roles: { typology: "typology", material: "metal", period: "period", date: "date" },
    compareWith: ["coins"],
  },
  ceramics: {
    images: [{ field: "profile", view: "profile" }],
    roles: { typology: "typology", material: "material", period: "period", date: "date" },
    compareWith: ["ceramics"],
  },
  "museum-objects": {
    images: [{ field: "front", view: "front" }],
    roles: { typology: "typology", material: "material", period: "period", date: "date" },
    compareWith: ["museum-objects"],
  },
};
