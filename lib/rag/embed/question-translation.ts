import "server-only";
import { createHash } from "node:crypto";
import { type ArchiveLanguage, processTranslationBridge, type TranslationBridge } from "./translate";
import { createTranslationCache, translationKey } from "./translation-cache";

/**
 * A question put into another of the archive's languages by the bridge, or null when the bridge
 * cannot. The ask pipeline reads a Catalan question in Spanish (and a Spanish one in Catalan) to
 * weigh the evidence and to find an interviewer who asked the same. Given the English the search
 * already made of it, the bridge goes on from that English (one Apertium run, not a second
 * Catalan→English one before English→Spanish), and one question is translated once: the process
 * bridge's translations are remembered (the 200 most recent, a running one shared); a substituted
 * bridge's (tests) never are.
 */
const remembered = createTranslationCache<string | null>(200);

export async function translateQuestion(
  question: string,
  from: ArchiveLanguage,
  to: ArchiveLanguage,
  bridge: TranslationBridge = processTranslationBridge,
  english: string | null = null,
): Promise<string | null> {
  if (from === to) return question;
  if (english !== null && from !== "en") {
    if (to === "en") return english;
    return translateQuestion(english, "en", to, bridge);
  }
  const make = async () => (await bridge.translate?.([question], from, to).catch(() => null))?.[0] ?? null;
  if (bridge !== processTranslationBridge) return make();
  return remembered.remember(translationKey(`question ${from}→${to}`, createHash("sha256").update(question).digest("hex")), make);
}
