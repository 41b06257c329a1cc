import { describe, expect, it } from "vitest";
import { isJsonContentType, readJsonBody } from "./request-body";

describe("isJsonContentType", () => {
  it("takes application/json and +json types, with parameters and in any case", () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json", " application/json "]) {
      expect(isJsonContentType(type), type).toBe(true);
    }
  });

  it("refuses the types a page on another site can send without a preflight, and anything else", () => {
    for (const type of [
      null,
      "",
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "text/json",
      "application/jsonp",
      "application/json-seq",
    ]) {
      expect(isJsonContentType(type), String(type)).toBe(false);
    }
  });
});

describe("readJsonBody", () => {
  const request = (body: string, type?: string) =>
    new Request("http://mnemo.test/api/ask", { method: "POST", body, headers: type ? { "content-type": type } : {} });

  it("reads a JSON body sent as JSON", async () => {
    await expect(readJsonBody(request('{"question":"lamp?"}', "application/json"), 1024, "the question")).resolves.toEqual({ question: "lamp?" });
  });

  it("refuses a JSON body sent as text/plain with 415 before reading it, and broken JSON with 400", async () => {
    // A string body without a type is text/plain;charset=UTF-8, as a cross-site fetch or form sends it.
    await expect(readJsonBody(request('{"question":"lamp?"}'), 1024, "the question")).rejects.toMatchObject({
      status: 415,
      message: /Send the question as JSON/,
    });
    await expect(readJsonBody(request('{"question":', "application/json"), 1024, "the question")).rejects.toMatchObject({ status: 400 });
  });
});
