import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import {
  type Principal,
  accessScopeSql,
  actorIdOf,
  assertAdmin,
  assertGoldenSetKeeper,
  canCreateRecords,
  canEdit,
  canEditProject,
  canEditSomeProject,
  canKeepGoldenSets,
  canRead,
  canReadPassage,
  canReadProject,
  editScopeSql,
  goldenSetScopeWhere,
  isAdmin,
  isAnonymous,
  isSystem,
  passageScopeSql,
  projectScopeSql,
  projectScopeWhere,
  readableProjectIds,
  publicReader,
  systemPrincipal,
  withPublicProjects,
} from "./index";
import { proposalScopeSql } from "./derived-scope";

const person = (overrides: Partial<Principal> & Pick<Principal, "role">): Principal => ({
  userId: `user-${overrides.role}`,
  email: `${overrides.role}@example.org`,
  name: overrides.role,
  readableProjectIds: [],
  editableProjectIds: [],
  ...overrides,
});

// The cast of every rule: "alpha" is the project in question, "beta" one nobody here edits.
const admin = person({ role: "admin" });
const curator = person({ role: "curator", readableProjectIds: ["alpha", "beta"], editableProjectIds: ["alpha"] });
const outsideCurator = person({ role: "curator", userId: "user-outside", readableProjectIds: ["beta"], editableProjectIds: [] });
const researcher = person({ role: "researcher", readableProjectIds: ["alpha"] });
const nobody = person({ role: "researcher", userId: "user-nobody" });

const expectNotFound = (run: () => void) => {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).code).toBe("not_found");
  expect((thrown as AppError).status).toBe(404);
  expect((thrown as AppError).message).toBe("Not found.");
};

describe("the administration gate", () => {
  it("lets admins and the system actor in", () => {
    expect(isAdmin(admin)).toBe(true);
    expect(() => assertAdmin(admin)).not.toThrow();
    expect(() => assertAdmin(systemPrincipal)).not.toThrow();
  });

  it("answers everyone else with the same not-found as a missing page", () => {
    for (const principal of [curator, outsideCurator, researcher, nobody]) {
      expect(isAdmin(principal)).toBe(false);
      expectNotFound(() => assertAdmin(principal));
    }
  });
});

describe("the system actor", () => {
  it("is recognised and recorded as no user", () => {
    expect(isSystem(systemPrincipal)).toBe(true);
    expect(actorIdOf(systemPrincipal)).toBeNull();
  });

  it("is no person, whatever their role", () => {
    for (const principal of [admin, curator, outsideCurator, researcher, nobody]) {
      expect(isSystem(principal)).toBe(false);
      expect(actorIdOf(principal)).toBe(principal.userId);
    }
  });
});

describe("reading", () => {
  it("admins and the system actor read every project", () => {
    for (const principal of [admin, systemPrincipal]) {
      expect(readableProjectIds(principal)).toBeNull();
      expect(canReadProject(principal, "alpha")).toBe(true);
      expect(canRead(principal, { projectId: "gamma" })).toBe(true);
      expect(projectScopeWhere(principal)).toEqual({});
    }
  });

  it("others read their projects only", () => {
    expect(canReadProject(curator, "alpha")).toBe(true);
    expect(canReadProject(outsideCurator, "alpha")).toBe(false);
    expect(canReadProject(researcher, "alpha")).toBe(true);
    expect(canReadProject(researcher, "beta")).toBe(false);
    expect(projectScopeWhere(researcher)).toEqual({ projectId: { in: ["alpha"] } });
  });

  it("a principal with no projects reads nothing", () => {
    expect(readableProjectIds(nobody)).toEqual([]);
    expect(canRead(nobody, { projectId: "alpha" })).toBe(false);
    expect(projectScopeWhere(nobody)).toEqual({ projectId: { in: [] } });
    expect(canReadPassage(nobody, { projectId: "alpha", contributingProjectIds: [] })).toBe(false);
  });

  it("a passage is readable only with every project whose text it holds", () => {
    const passage = { projectId: "alpha", contributingProjectIds: ["alpha", "beta"] };
    expect(canReadPassage(admin, passage)).toBe(true);
    expect(canReadPassage(curator, passage)).toBe(true);
    expect(canReadPassage(researcher, passage)).toBe(false);
    expect(canReadPassage(outsideCurator, passage)).toBe(false);
  });
});

describe("read scope in SQL", () => {
  it("is no restriction for admins, binding nothing", () => {
    const params: unknown[] = [];
    expect(projectScopeSql(admin, "r.project_id", params)).toBe("TRUE");
    expect(passageScopeSql(admin, "c", params)).toBe("TRUE");
    expect(accessScopeSql(admin, "a.scope", params)).toBe("TRUE");
    expect(params).toEqual([]);
  });

  it("binds the readable ids as the next parameter", () => {
    const params: unknown[] = ["earlier"];
    expect(projectScopeSql(researcher, "r.project_id", params)).toBe("r.project_id = ANY($2::text[])");
    expect(passageScopeSql(researcher, "c", params)).toBe("(c.project_id = ANY($3::text[]) AND c.contributing_project_ids <@ $3::text[])");
    expect(accessScopeSql(researcher, "a.scope", params)).toBe("a.scope <@ $4::text[]");
    expect(params).toEqual(["earlier", ["alpha"], ["alpha"], ["alpha"]]);
  });

  it("binds an empty list for a principal with no projects, so nothing matches", () => {
    const params: unknown[] = [];
    expect(projectScopeSql(nobody, "r.project_id", params)).toBe("r.project_id = ANY($1::text[])");
    expect(params).toEqual([[]]);
  });

  it("refuses a column that is not a plain name", () => {
    expect(() => projectScopeSql(researcher, "r.project_id; DROP TABLE records", [])).toThrow(/unsafe/);
    expect(() => passageScopeSql(researcher, "c.x", [])).toThrow(/unsafe/);
    expect(() => editScopeSql(curator, "1=1 OR r.id", [])).toThrow(/unsafe/);
  });
});

describe("editing", () => {
  it("admins edit every project", () => {
    expect(canEditProject(admin, "alpha")).toBe(true);
    expect(canEdit(admin, { projectId: "gamma" })).toBe(true);
    expect(canEditSomeProject(admin)).toBe(true);
  });

  it("curators edit the projects they are editors of, not those they only read", () => {
    expect(canEditProject(curator, "alpha")).toBe(true);
    expect(canEditProject(curator, "beta")).toBe(false);
    expect(canEditProject(outsideCurator, "alpha")).toBe(false);
    expect(canEditSomeProject(curator)).toBe(true);
    expect(canEditSomeProject(outsideCurator)).toBe(false);
  });

  it("researchers edit nothing, even a project listed as editable", () => {
    const listed = person({ role: "researcher", readableProjectIds: ["alpha"], editableProjectIds: ["alpha"] });
    expect(canEditProject(listed, "alpha")).toBe(false);
    expect(canEditSomeProject(listed)).toBe(false);
    expect(canCreateRecords(listed)).toBe(false);
  });

  it("a principal with no projects edits nothing", () => {
    expect(canEditProject(nobody, "alpha")).toBe(false);
    expect(canCreateRecords(nobody)).toBe(false);
  });

  it("scopes SQL to the editable projects", () => {
    const params: unknown[] = [];
    expect(editScopeSql(admin, "r.project_id", params)).toBe("TRUE");
    expect(editScopeSql(curator, "r.project_id", params)).toBe("r.project_id = ANY($1::text[])");
    expect(editScopeSql(outsideCurator, "r.project_id", params)).toBe("r.project_id = ANY($2::text[])");
    expect(params).toEqual([["alpha"], []]);
    expect(editScopeSql(researcher, "r.project_id", params)).toBe("FALSE");
    expect(editScopeSql(nobody, "r.project_id", params)).toBe("FALSE");
    expect(params).toHaveLength(2);
  });
});

describe("proposal scope", () => {
  const columns = { recordProject: "r.project_id", evidenceRecordIds: "p.evidence_record_ids", evidenceProjectIds: "p.evidence_project_ids" };

  it("is no restriction for admins", () => {
    const params: unknown[] = [];
    expect(proposalScopeSql(admin, columns, params)).toBe("(TRUE AND TRUE)");
    expect(params).toEqual([]);
  });

  it("needs the record's project and every evidence project readable, as the records are now", () => {
    const params: unknown[] = [];
    const sql = proposalScopeSql(curator, columns, params);
    expect(sql.startsWith("(r.project_id = ANY($1::text[]) AND ARRAY(")).toBe(true);
    expect(sql).toContain("live_record.id = ANY(p.evidence_record_ids)");
    expect(sql).toContain("unnest(p.evidence_project_ids)");
    expect(sql.endsWith("<@ $2::text[])")).toBe(true);
    expect(params).toEqual([
      ["alpha", "beta"],
      ["alpha", "beta"],
    ]);
  });

  it("binds an empty list for a principal with no projects", () => {
    const params: unknown[] = [];
    proposalScopeSql(nobody, columns, params);
    expect(params).toEqual([[], []]);
  });

  it("refuses unsafe columns", () => {
    expect(() => proposalScopeSql(researcher, { ...columns, evidenceRecordIds: "p.ids); DELETE FROM proposals; --" }, [])).toThrow(/unsafe/);
  });
});

describe("golden sets", () => {
  it("admins keep every set", () => {
    expect(canKeepGoldenSets(admin)).toBe(true);
    expect(() => assertGoldenSetKeeper(admin)).not.toThrow();
    expect(goldenSetScopeWhere(admin)).toEqual({});
  });

  it("curators who edit a project keep their own sets", () => {
    expect(canKeepGoldenSets(curator)).toBe(true);
    expect(() => assertGoldenSetKeeper(curator)).not.toThrow();
    expect(goldenSetScopeWhere(curator)).toEqual({ createdById: curator.userId });
  });

  it("curators without an editable project, researchers and principals with no projects get not-found", () => {
    for (const principal of [outsideCurator, researcher, nobody]) {
      expect(canKeepGoldenSets(principal)).toBe(false);
      expectNotFound(() => assertGoldenSetKeeper(principal));
    }
  });
});

describe("the public reader of public projects", () => {
  it("reads exactly the public projects, edits nothing and is no actor", () => {
    const reader = publicReader(["alpha"]);
    expect(isAnonymous(reader)).toBe(true);
    expect(isAdmin(reader)).toBe(false);
    expect(canReadProject(reader, "alpha")).toBe(true);
    expect(canReadProject(reader, "beta")).toBe(false);
    expect(canEditProject(reader, "alpha")).toBe(false);
    expect(canCreateRecords(reader)).toBe(false);
    expect(canReadPassage(reader, { projectId: "alpha", contributingProjectIds: ["beta"] })).toBe(false);
    expect(actorIdOf(reader)).toBeNull();
    expect(() => assertAdmin(reader)).toThrow(AppError);
  });

  it("with no public project reads nothing", () => {
    const reader = publicReader([]);
    const params: unknown[] = [];
    expect(projectScopeSql(reader, "r.project_id", params)).toBe("r.project_id = ANY($1::text[])");
    expect(params).toEqual([[]]);
    expect(canReadProject(reader, "alpha")).toBe(false);
  });

  it("adds the public projects to a person's reading, never their editing", () => {
    const widened = withPublicProjects(researcher, ["beta"]);
    expect(canReadProject(widened, "alpha")).toBe(true);
    expect(canReadProject(widened, "beta")).toBe(true);
    expect(canEditProject(widened, "beta")).toBe(false);
    expect(isAnonymous(widened)).toBe(false);
    expect(withPublicProjects(nobody, []).readableProjectIds).toEqual([]);
    expect(withPublicProjects(admin, ["beta"])).toBe(admin);
  });
});
