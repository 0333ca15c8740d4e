/** The portal's New tenant form as data (values, request, problems) and the quota table's share used. */
import { describe, expect, it } from "vitest";
import { shareUsed } from "../../provider/server/portal/quotaTable";
import { formProblems, requestOfForm, tenantFormValues } from "../../provider/server/portal/tenantForm";

describe("the New tenant form", () => {
  it("reads each field's text, trimmed, and anything else as empty", () => {
    expect(tenantFormValues({ name: " team-a ", cpu: ["1", "2"], memory: 3, _csrf: "t" })).toEqual({
      name: "team-a",
      cpu: "",
      memory: "",
      storage: "",
      podSecurity: "",
    });
  });

  it("asks for what was filled in only, so the platform's defaults fill the rest", () => {
    const values = tenantFormValues({ name: "team-a", storage: "10Gi" });
    expect(requestOfForm(values)).toEqual({ resources: { storage: "10Gi" } });
    expect(requestOfForm(tenantFormValues({ name: "team-a" }))).toEqual({});
  });

  it("puts each of the service's problems beside the field it names, and the rest in the summary only", () => {
    const problems = formProblems([
      "name: must start with a letter",
      "resources.memory: 64Gi is above the platform's ceiling",
      'inputs: unknown field(s) "x"',
      "resources.memory: must be at least 2218Mi",
    ]);
    expect(problems.byField).toEqual({
      name: ["name: must start with a letter"],
      memory: ["resources.memory: 64Gi is above the platform's ceiling", "resources.memory: must be at least 2218Mi"],
    });
    expect(problems.all.map((p) => p.field)).toEqual(["name", "memory", undefined, "memory"]);
  });
});

describe("the quota's share used", () => {
  it.each([
    ["500m", "2", "25%"],
    ["3Gi", "4Gi", "75%"],
    ["0", "10Gi", "0%"],
    ["1", "0", undefined],
    ["1", undefined, undefined],
    ["lots", "2", undefined],
  ])("of %s against %s is %s", (used, hard, share) => {
    expect(shareUsed(used, hard)).toBe(share);
  });
});
