/**
 * The API's OpenAPI 3.1 document: generated from the API's paths and zod schemas (its committed
 * copy, docs/openapi.json, is checked fresh by generatedFiles.test.ts), served as generated,
 * describing exactly the routes the server has, with schemas that a JSON Schema 2020-12
 * validator compiles and that the API's real answers match.
 */
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  API_PATHS,
  API_ROOT,
  API_ROUTES,
  type ApiErrorBody,
  type SignInInfo,
  type WhoAmI,
} from "../../provider/contracts/tenantsApi";
import type {
  apiErrorBodySchema,
  createTenantBodySchema,
  signInInfoSchema,
  whoAmISchema,
} from "../../provider/server/http/tenantsApiSchemas";
import type { CreateTenantBody } from "../../provider/contracts/tenantsApi";
import { tenantsApiDocument } from "../../provider/server/http/openApiDocument";
import { apiServerHarness } from "./support/apiServerHarness";

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
};
const document = tenantsApiDocument() as Document;

/** A validator of the document's component `name`. */
function validatorOf(name: string) {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ ...document, $id: "openapi.json" } as object);
  return ajv.compile({ $ref: `openapi.json#/components/schemas/${name}` });
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every route under the API's root, as the server routes it", async () => {
    expect(document.openapi).toBe("3.1.0");
    const apiRoutes = Object.values(API_ROUTES).filter((route) => route.startsWith(`${API_ROOT}/`));
    expect(Object.keys(document.paths).sort()).toEqual(apiRoutes.map((r) => r.replace(/:(\w+)/g, "{$1}")).sort());
    const h = await apiServerHarness();
    for (const [path, operations] of Object.entries(document.paths))
      for (const method of Object.keys(operations))
        expect(
          h.app.hasRoute({ method: method.toUpperCase() as "GET", url: path.replace(/\{(\w+)\}/g, ":$1") }),
          `${method} ${path}`,
        ).toBe(true);
  });

  it("is served as generated", async () => {
    const h = await apiServerHarness();
    const answer = await h.app.inject({ method: "GET", url: API_PATHS.openApi });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual(document);
  });

  it("has schemas a JSON Schema 2020-12 validator compiles, which the API's answers match", async () => {
    const h = await apiServerHarness();
    const headers = { authorization: `Bearer ${await h.token("alice@example.com")}` };
    const created = await h.app.inject({
      method: "POST",
      url: API_PATHS.tenants,
      headers,
      payload: { name: "atlas", spec: { resources: { cpu: "4", memory: "8Gi" } } },
    });
    const refused = await h.app.inject({ method: "POST", url: API_PATHS.tenants, headers, payload: { name: "" } });
    const list = await h.app.inject({ method: "GET", url: API_PATHS.tenants, headers });
    const whoAmI = await h.app.inject({ method: "GET", url: API_PATHS.whoAmI, headers });
    for (const [schema, answer] of [
      ["Tenant", created],
      ["Error", refused],
      ["TenantList", list],
      ["WhoAmI", whoAmI],
    ] as const) {
      const validate = validatorOf(schema);
      expect(validate(answer.json()), `${schema}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(refused.statusCode).toBe(400);
    // The schemas say no to what the API never answers.
    expect(validatorOf("Tenant")({ ...created.json(), kind: "Namespace" })).toBe(false);
  });

  it("has the types the command's client and the routes use", () => {
    expectTypeOf<z.input<typeof createTenantBodySchema>>().toExtend<CreateTenantBody>();
    expectTypeOf<z.output<typeof signInInfoSchema>>().toExtend<SignInInfo>();
    expectTypeOf<z.output<typeof whoAmISchema>>().toExtend<WhoAmI>();
    expectTypeOf<z.output<typeof apiErrorBodySchema>>().toExtend<ApiErrorBody>();
  });
});
