"use server";

import { z } from "zod";
import { authorizedAction } from "@/lib/http/authorized";
import { setAskThresholds } from "@/lib/admin/ask-thresholds";

/** Sets the Q&A evidence thresholds (admins only); they override answerSettings' defaults at once. */
export const setAskThresholdsAction = authorizedAction(
  z.object({ minSimilarity: z.number(), strongSimilarity: z.number(), minTermCoverage: z.number() }),
  async (input, { principal, runtime }) => {
    const { sql } = runtime.database;
    return setAskThresholds(sql, principal, input);
  },
);
