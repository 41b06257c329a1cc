import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bridgeStatus,
  createTranslationBridge,
  fromApertiumStream,
  NullFlushPipeline,
  nullFlushScript,
  plainCommand,
  processTranslationBridge,
  toApertiumStream,
  translateToEnglish,
  translationSteps,
} from "./translate";

// Needs the Debian packages apertium, apertium-eng-spa and apertium-eng-cat.
describe("Apertium bridge", { timeout: 60_000 }, () => {
  it("reports both pairs as available", async () => {
    const status = await bridgeStatus();
    expect(status).toMatchObject({ available: true, pairs: { es: true, ca: true } });
  });

  it("translates Spanish and Catalan into English", async () => {
    const [dog, rates] = await translateToEnglish(["El perro ladra en el jardín.", "Los tipos de interés subieron en marzo."], "es");
    expect(dog).toMatch(/\bdog\b.*\bbarks\b/i);
    expect(rates).toMatch(/\binterest\b.*\bMarch\b/i);
    const [archive] = await translateToEnglish(["L'arxiu municipal conserva les cartes de l'alcalde."], "ca");
    expect(archive).toMatch(/\bmunicipal archive\b/i);
    expect(archive).toMatch(/\bmayor\b/i);
  });

  it("translates from English into Spanish and Catalan, and between them through English", async () => {
    expect(translationSteps("es", "ca")).toEqual(["spa-eng", "eng-cat"]);
    expect(translationSteps("en", "en")).toEqual([]);
    const [spanish, catalan] = [
      await processTranslationBridge.translate(["The dog sleeps in the garden."], "en", "es"),
      await processTranslationBridge.translate(["The dog sleeps in the garden."], "en", "ca"),
    ];
    expect(spanish?.[0]).toMatch(/\bperro\b.*\bjard/i);
    expect(catalan?.[0]).toMatch(/\bgos\b.*\bjard/i);
    const [viaEnglish] = (await processTranslationBridge.translate(["El perro ladra en el jardín."], "es", "ca")) ?? [];
    expect(viaEnglish).toMatch(/\bgos\b/i);
    expect(await processTranslationBridge.translate(["Same words."], "en", "en")).toEqual(["Same words."]);
  });

  it("keeps the count and each text's own translation in a batch of 50 mixed texts", async () => {
    const sentences = [
      "Vi la casa",
      "blanca y grande",
      "Mi abuelo trabajaba en el puerto.\nCada mañana salía a las cinco.\n\nNunca faltó un día.",
      "¿Dónde está el archivo? ¡No lo sé!",
      "",
      "a < b && c > d; 5 * 3 = 15 ^ 2 $100 @usuario /ruta\\x [nota] {llave} #etiqueta",
      "MNEMOSEP7Q no es un separador aquí.",
      "—",
      "Fin sin punto",
      "Dr. Pérez llegó a las 10 a. m.",
    ];
    const texts = Array.from({ length: 50 }, (_, i) => {
      const base = sentences[i % sentences.length] ?? "";
      return i % 7 === 6 ? `${base} ${"La fábrica cerró en 1975 y los obreros se quedaron sin trabajo. ".repeat(1 + (i % 4))}` : base;
    });
    const translated = await translateToEnglish(texts, "es");
    expect(translated).toHaveLength(50);
    texts.forEach((text, i) => expect(Boolean(translated[i]), `text ${i}`).toBe(text.trim().length > 0));
    // Nothing leaks from one text into its neighbour: batched equals one by one.
    for (const i of [0, 1, 2, 3, 5, 6, 13]) {
      const [alone] = await translateToEnglish([texts[i] ?? ""], "es");
      expect(translated[i], `text ${i}`).toBe(alone);
    }
    expect(translated[0]).toBe("I saw the house");
    expect(translated[2]).toContain("\n");
    expect(translated[6]).toContain("MNEMOSEP7Q");
  });

  describe("the long-lived pipelines for marked texts", () => {
    const tricky = [
      "¿Dónde aprendió Lucía a remendar redes?",
      "Fin sin punto",
      "Termina con punto.",
      "línea uno\nlínea dos\n\nlínea tres",
      "## El grabado en hueco\n\n### Buril y punta seca",
      "a < b && c > d; 5 * 3 = 15 ^ 2 $100 @usuario /ruta\\x [nota] {llave} #etiqueta ~tilde",
      "Dr. Pérez llegó a las 10 a. m.",
      "L'arxiu municipal conserva les cartes de l'alcalde.",
    ];

    it("gives exactly what an apertium run of the text alone gives, in both pairs", { timeout: 180_000 }, async () => {
      const piped = createTranslationBridge();
      const runs = createTranslationBridge({ pipelines: false });
      for (const language of ["es", "ca"] as const) {
        const expected: string[] = [];
        for (const text of tricky) expected.push(...(await runs.translateMarked([text], language)));
        for (const [index, text] of tricky.entries()) {
          expect(await piped.translateMarked([text], language), `${language} ${index}`).toEqual([expected[index]]);
        }
        // Several texts in one call come back in order.
        expect(await piped.translateMarked(tricky, language)).toEqual(expected);
      }
    });

    it("translates a text the same whatever went through the pipeline before it", async () => {
      // "les sent" is a word Apertium's tagger has no class for: it then changes how the tagger
      // reads unknown words (here the speaker's placeholder) for the rest of its input.
      const question = "MNEMONAMEAQ: com les van portar al poble nou? quan la MNEMONAMEBQ va tocar terra.";
      const fresh = createTranslationBridge();
      const [alone] = await fresh.translateMarked([question], "ca");
      expect(alone).toMatch(/how the took/i);
      expect(alone).toMatch(/when the \*MNEMONAMEBQ touched/i);
      const [, afterOther] = await fresh.translateMarked(["La Maria les sent tocar.", question], "ca");
      expect(afterOther).toBe(alone);
      const [later] = await fresh.translateMarked([question], "ca");
      expect(later).toBe(alone);
      // Long work is sent in several calls, each text still on its own.
      const long = [...Array.from({ length: 40 }, () => "La Maria les sent tocar cada dia a l'alba."), question];
      expect((await fresh.translateMarked(long, "ca")).at(-1)).toBe(alone);
    });

    it("starts a mode's tagger line without a shell when it is plain words", () => {
      expect(plainCommand("apertium-tagger -z -g $2 '/usr/share/apertium/x/cat-eng.prob'", ["-g", ""])).toEqual([
        "apertium-tagger",
        "-z",
        "-g",
        "/usr/share/apertium/x/cat-eng.prob",
      ]);
      expect(plainCommand("lt-proc -z $1 'a b.bin'", ["-g", ""])).toEqual(["lt-proc", "-z", "-g", "a b.bin"]);
      expect(plainCommand("apertium-tagger -g x.prob | sort", [])).toBeNull();
      expect(plainCommand("tagger $(echo x)", [])).toBeNull();
    });

    it("writes and reads Apertium's stream format as its text deformatter and reformatter do", () => {
      expect(toApertiumStream("a [b] $c\nd\n\ne")).toBe("a \\[b\\] \\$c[\n]d.[][\n\n]e.[][\n]");
      expect(fromApertiumStream("Hello?.[][\n]")).toBe("Hello?");
      expect(fromApertiumStream("a \\[b\\] \\$c[\n]d.[][\n\n]e.[][\n]")).toBe("a [b] $c\nd\n\ne");
    });

    it("starts again after its processes are killed", async () => {
      const pipeline = new NullFlushPipeline(await nullFlushScript("spa-eng"), true);
      const [first] = await pipeline.translate(["El perro ladra."]);
      expect(first).toMatch(/dog barks/i);
      const group = pipeline.processGroup!;
      process.kill(-group, "SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await pipeline.translate(["El perro ladra."])).toEqual([first]);
      expect(pipeline.processGroup).not.toBe(group);
      pipeline.stop();
    });

    it("ends a pipeline that does not answer, and gives up on it after three such ends", async () => {
      const silent = new NullFlushPipeline("cat > /dev/null", true, 200);
      for (let attempt = 0; attempt < 3; attempt++) {
        expect(silent.usable).toBe(true);
        await expect(silent.translate(["Hola"])).rejects.toThrow(/longer than 200 ms/);
        expect(silent.processGroup).toBeUndefined();
      }
      expect(silent.usable).toBe(false);
    });
  });

  describe("without a usable apertium", () => {
    let directory: string;
    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), "mnemo-translate-test-"));
    });
    afterAll(async () => {
      await rm(directory, { recursive: true, force: true });
    });

    it("is unavailable when the binary is missing, and warns once", async () => {
      const warnings: string[] = [];
      const bridge = createTranslationBridge({ apertiumPath: join(directory, "no-such-apertium"), warn: (line) => warnings.push(line) });
      const status = await bridge.status();
      expect(status).toMatchObject({ available: false, pairs: { es: false, ca: false } });
      expect(status.detail).toContain("no-such-apertium");
      await bridge.status();
      expect(warnings).toHaveLength(1);
      await expect(bridge.translateToEnglish(["Hola"], "es")).rejects.toMatchObject({ name: "EmbeddingError", retryable: false });
      // A translation for the reader is optional: without the pair there is none, and no error.
      expect(await bridge.translate(["Hello"], "en", "es")).toBeNull();
    });

    it("ends a run that takes too long, as a retryable error", async () => {
      const slow = join(directory, "slow-apertium");
      await writeFile(slow, "#!/bin/sh\nsleep 30\n");
      await chmod(slow, 0o755);
      const started = Date.now();
      await expect(createTranslationBridge({ apertiumPath: slow, timeoutMs: 300 }).translateToEnglish(["Hola"], "es")).rejects.toMatchObject({
        name: "EmbeddingError",
        retryable: true,
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  });
});
