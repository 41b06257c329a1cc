import { describe, expect, it } from "vitest";
import { egressAllowed, egressAllowedSql, egressPolicies, mayLeaveHost } from "./egress";

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
    expect(sql).toContain("egress_section.id = ANY(c.contributing_section_ids) AND egress_section.egress_policy <> $3::\"EgressPolicy\"");
    expect(sql).not.toContain("'allow_external'");
  });

  it("refuses unsafe column names", () => {
    expect(() => egressAllowedSql({ policy: "s.egress_policy OR TRUE", contributingSectionIds: "c.ids" }, [])).toThrow(/unsafe/);
    expect(() => egressAllowedSql({ policy: "s.egress_policy", contributingSectionIds: "c.ids)--" }, [])).toThrow(/unsafe/);
  });
});
