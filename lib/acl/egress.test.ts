import { describe, expect, it } from "vitest";
import { egressAllowed, egressAllowedSql, egressPolicies, isLoopback, mayLeaveHost, redacted } from "./egress";

const external = { external: true };
const local = { external: false };
const unstated = {};

describe("egressAllowed", () => {
  it("allows text whose every section allows it", () => {
    expect(egressAllowed(["allow_external"])).toBe(true);
    expect(egressAllowed(["allow_external", "allow_external"])).toBe(true);
  });

  it("refuses text of any local-only section", () => {
    expect(egressAllowed(["local_only"])).toBe(false);
    expect(egressAllowed(["allow_external", "local_only"])).toBe(false);
  });

  it("refuses text of a section it does not know", () => {
    expect(egressAllowed([undefined])).toBe(false);
    expect(egressAllowed(["allow_external", null])).toBe(false);
    expect(egressAllowed(["ALLOW_EXTERNAL"])).toBe(false);
  });

  it("names the two policies the database knows", () => {
    expect(egressPolicies).toEqual(["local_only", "allow_external"]);
  });
});

describe("mayLeaveHost", () => {
  it("sends everything to a receiver on this server", () => {
    for (const receiver of [local, unstated]) {
      expect(mayLeaveHost(receiver, true)).toBe(true);
      expect(mayLeaveHost(receiver, false)).toBe(true);
    }
  });

  it("sends an external receiver only text allowed to leave", () => {
    expect(mayLeaveHost(external, true)).toBe(true);
    expect(mayLeaveHost(external, false)).toBe(false);
    expect(mayLeaveHost(external, egressAllowed(["allow_external", "local_only"]))).toBe(false);
  });
});

describe("egressAllowedSql", () => {
  it("checks the section's policy and every contributing section's, binding the policy", () => {
    const params: unknown[] = ["ids", "space"];
    const sql = egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.contributing_section_ids" }, params);
    expect(params).toEqual(["ids", "space", "allow_external"]);
    expect(sql).toMatch(/^\(s\.egress_policy = \$3::"EgressPolicy" AND NOT EXISTS \(/);
    expect(sql).toContain('egress_section.id = ANY(c.contributing_section_ids) AND egress_section.egress_policy <> $3::"EgressPolicy"');
    expect(sql).not.toContain("'allow_external'");
  });

  it("refuses unsafe column names", () => {
    expect(() => egressAllowedSql({ policy: "s.egress_policy OR TRUE", contributingSectionIds: "c.ids" }, [])).toThrow(/unsafe/);
    expect(() => egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.ids)--" }, [])).toThrow(/unsafe/);
  });
});

describe("endpoints", () => {
  it("counts only this host's addresses as loopback (a loopback model endpoint is a local receiver)", () => {
    for (const url of ["http://127.0.0.1:8000", "http://127.8.9.10/v1", "http://localhost:9000", "http://[::1]:8080"]) expect(isLoopback(url)).toBe(true);
    for (const url of ["https://api.openai.com", "http://10.0.0.5:8000", "http://127.0.0.1.example.org", "not a url"]) expect(isLoopback(url)).toBe(false);
  });

  it("names an endpoint without the credentials its URL may carry", () => {
    expect(redacted("https://user:sk-secret@asr.example.org/v1/audio/transcriptions")).toBe("https://asr.example.org/v1/audio/transcriptions");
  });
});
