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

describe("the component's problems on the New tenant form", () => {
  const exceeding = (path: string, value: string, boundPath: string, bound: string) => ({
    path,
    message: `${value} must not exceed ${boundPath} (${bound})`,
    exceeds: { value, boundPath, bound },
  });

  it("words a field the form does not show as a consequence of the one typed, beside that one", () => {
    const problems = formProblems([
      exceeding("limitRange.defaultLimit.cpu", "1", "resources.cpu", "500m"),
      exceeding("vcluster.controlPlaneResources.limits.memory", "2Gi", "resources.memory", "512Mi"),
      { path: "resources.cpu", message: "500m is less than the limits of the vCluster's own containers (2 cores)" },
      { path: "", message: "must be a DNS-1123 label" },
    ]);
    expect(problems.byField).toEqual({
      cpu: [
        "with 500m CPU, each container that sets no limit of its own is given 1 CPU, more than the whole tenant has",
        "resources.cpu: 500m is less than the limits of the vCluster's own containers (2 cores)",
      ],
      memory: [
        "with 512Mi of memory, the tenant's own control plane needs 2Gi of memory, more than the whole tenant has",
      ],
      name: ["name: must be a DNS-1123 label"],
    });
    expect(problems.all.map((p) => p.text).join("\n")).not.toMatch(/limitRange|controlPlaneResources/);
  });

  it("says a problem no field of the form can fix is the platform's, in the summary only", () => {
    const problems = formProblems([
      exceeding("vcluster.controlPlaneResources.requests.cpu", "2", "vcluster.controlPlaneResources.limits.cpu", "1"),
      { path: "platform.podSecurity.default", message: "privileged is not a level the platform allows" },
    ]);
    expect(problems.byField).toEqual({});
    expect(problems.all).toEqual([
      {
        text: "vcluster.controlPlaneResources.requests.cpu: 2 must not exceed vcluster.controlPlaneResources.limits.cpu (1) (the platform sets this, not this form: ask the platform team)",
      },
      {
        text: "platform.podSecurity.default: privileged is not a level the platform allows (the platform sets this, not this form: ask the platform team)",
      },
    ]);
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
