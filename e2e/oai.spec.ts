import { expect, test } from "@playwright/test";
import { firstRecordId, signIn } from "./helpers";

/**
 * OAI-PMH at /oai without signing in: the demo's Public Collections is public, so a harvester
 * gets its records in Dublin Core, page after page; a record of the restricted mine project is
 * unknown to it (the same answer as a missing record) and never appears in a list.
 */
test("a harvester reads the public collections over OAI-PMH and nothing of the mine project", async ({ browser, playwright, baseURL }) => {
  test.setTimeout(120_000);
  // The admin finds a record of the restricted mine project.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, "admin");
  await admin.goto("/records");
  const mineProject = await admin.getByLabel("Project").locator("option", { hasText: "Mine Closure" }).getAttribute("value");
  const mineId = await firstRecordId(admin, `section=oral-histories&project=${mineProject}`);
  await adminContext.close();

  // A harvester: no cookie, no token.
  const harvester = await playwright.request.newContext({ baseURL });
  const identify = await harvester.get("/oai?verb=Identify");
  expect(identify.status()).toBe(200);
  expect(identify.headers()["content-type"]).toContain("text/xml");
  const identifyXml = await identify.text();
  expect(identifyXml).toContain("<protocolVersion>2.0</protocolVersion>");
  expect(identifyXml).toContain("<deletedRecord>persistent</deletedRecord>");
  const posted = await harvester.post("/oai", { form: { verb: "ListMetadataFormats" } });
  expect(await posted.text()).toContain("<metadataPrefix>oai_dc</metadataPrefix>");

  let xml = await (await harvester.get("/oai?verb=ListRecords&metadataPrefix=oai_dc&set=project:collections")).text();
  const first = /<identifier>(oai:[^<]+)<\/identifier>/.exec(xml)?.[1];
  expect(first, xml.slice(0, 500)).toBeTruthy();
  const repository = first!.split(":")[1];
  for (let page = 0; page < 3; page++) {
    expect(xml).toContain("<record>");
    expect(xml).toContain("<dc:title>");
    expect(xml).not.toContain(mineId);
    expect(xml).not.toContain("Mine Closure");
    const headers = [...xml.matchAll(/<header[^>]*>([\s\S]*?)<\/header>/g)].map((match) => match[1]!);
    expect(headers.every((header) => header.includes("<setSpec>project:collections</setSpec>"))).toBe(true);
    const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
    if (!token) break;
    xml = await (await harvester.get(`/oai?verb=ListRecords&resumptionToken=${encodeURIComponent(token)}`)).text();
  }

  const denied = await (await harvester.get(`/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${repository}:${mineId}`)).text();
  const missing = await (
    await harvester.get(`/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:${repository}:00000000-0000-4000-8000-000000000000`)
  ).text();
  expect(denied).toContain('<error code="idDoesNotExist">');
  expect(denied.replace(/<responseDate>.*?<\/responseDate>/, "").replace(mineId, "ID")).toBe(
    missing.replace(/<responseDate>.*?<\/responseDate>/, "").replace("00000000-0000-4000-8000-000000000000", "ID"),
  );
  const mineSet = await (await harvester.get("/oai?verb=ListIdentifiers&metadataPrefix=oai_dc&set=project:mine")).text();
  expect(mineSet).toContain('<error code="noRecordsMatch">');
  await harvester.dispose();
});
