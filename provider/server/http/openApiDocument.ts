/**
 * The OpenAPI 3.1 document of `/api/v1`, generated from the API's paths (contracts/tenantsApi.ts)
 * and its zod schemas (tenantsApiSchemas.ts): the server serves it, `npm run generate`
 * writes it to docs/openapi.json, and the unit tier tests the API against it. What this file adds
 * is what code cannot say: each operation's words and the answers it may give (the statuses follow
 * the one mapping of httpErrors.ts: a tenant the caller may not see is 404, like one that is not).
 */
import { z } from "zod";
import { API_ROOT, API_ROUTES, CSRF_HEADER } from "../../contracts/tenantsApi";
import { API_SCHEMAS, type ApiSchemaName } from "./tenantsApiSchemas";
import { serverCookies } from "./serverCookies";

/** The routes the document describes: those under the API's root. */
type DocumentedRoute = {
  [K in keyof typeof API_ROUTES]: (typeof API_ROUTES)[K] extends `${typeof API_ROOT}/${string}` ? K : never;
}[keyof typeof API_ROUTES];

/** An answer: a JSON schema by name, or text of a media type. */
type Answer = ApiSchemaName | { readonly text: string; readonly description: string };

/** One operation. */
interface Operation {
  readonly operationId: string;
  readonly summary: string;
  /** Whether it needs a sign-in (a bearer ID token, or the portal's session cookie). */
  readonly signedIn: boolean;
  /** Whether a request signed in by cookie must carry its CSRF token: it changes something, or runs a preview. */
  readonly changes?: boolean;
  readonly query?: readonly { readonly name: string; readonly description: string; readonly values: string[] }[];
  readonly body?: ApiSchemaName;
  /** The success status and its answer. */
  readonly ok: readonly [number, Answer];
  /** The error statuses it may answer with (each an Error body). */
  readonly errors: readonly number[];
}

/** Errors any signed-in route may answer: no or a refused sign-in, a bad request, the host unreachable. */
const SIGNED_IN_ERRORS = [400, 401, 503] as const;

/** Every documented operation, by route and method. */
const OPERATIONS: Readonly<Record<DocumentedRoute, Readonly<Record<string, Operation>>>> = {
  tenants: {
    get: {
      operationId: "listTenants",
      summary: "The caller's tenants, by name; with `all=true`, every tenant (admins only).",
      signedIn: true,
      query: [{ name: "all", description: "`true`: every tenant (admins only).", values: ["true", "false"] }],
      ok: [200, "TenantList"],
      errors: [...SIGNED_IN_ERRORS, 403],
    },
    post: {
      operationId: "createTenant",
      summary: "Creates a tenant owned by the caller, checked first with the Tenant component's rules.",
      signedIn: true,
      changes: true,
      body: "CreateTenantBody",
      ok: [201, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 403, 409, 429],
    },
  },
  tenant: {
    get: {
      operationId: "getTenant",
      summary: "One of the caller's tenants.",
      signedIn: true,
      ok: [200, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404],
    },
    delete: {
      operationId: "deleteTenant",
      summary: "Asks for the tenant's teardown; the Tenant goes once nothing of it is left.",
      signedIn: true,
      changes: true,
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 403, 404, 409],
    },
  },
  tenantPreview: {
    post: {
      operationId: "previewTenant",
      summary:
        "What creating (a name no tenant has) or deleting (one of the caller's tenants) the tenant would change, as its stack's preview plans it; nothing is stored or changed.",
      signedIn: true,
      changes: true,
      body: "PreviewTenantBody",
      ok: [200, "TenantPreview"],
      errors: [...SIGNED_IN_ERRORS, 403, 404, 409, 429],
    },
  },
  tenantEvents: {
    get: {
      operationId: "followTenant",
      summary:
        "The tenant now, then each change, as server-sent events (`tenant`, then `deleted`); `Last-Event-ID` resumes after an event.",
      signedIn: true,
      ok: [200, { text: "text/event-stream", description: "Server-sent events; each `data` is a Tenant (JSON)." }],
      errors: [...SIGNED_IN_ERRORS, 404],
    },
  },
  tenantKubeconfig: {
    get: {
      operationId: "getTenantKubeconfig",
      summary: "The tenant's kubeconfig (cluster-admin inside it), for its owner, once it is Ready.",
      signedIn: true,
      ok: [200, { text: "application/yaml", description: "The kubeconfig, YAML." }],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  tenantHistory: {
    get: {
      operationId: "getTenantHistory",
      summary:
        "The tenant's updates, newest first: when, the result, what changed, the request's generation, the platform revision, who ran it, and the request.",
      signedIn: true,
      ok: [200, "TenantHistory"],
      errors: [...SIGNED_IN_ERRORS, 404],
    },
  },
  tenantQuota: {
    get: {
      operationId: "getTenantQuota",
      summary:
        "The tenant's host quota: what its pods and claims use against each ceiling of its namespace's ResourceQuota.",
      signedIn: true,
      ok: [200, "TenantQuota"],
      errors: [...SIGNED_IN_ERRORS, 404],
    },
  },
  tenantRollback: {
    post: {
      operationId: "rollBackTenant",
      summary:
        "Puts the request of an earlier update back as the tenant's request (its owner or an admin): a new generation, previewed and approved as any change.",
      signedIn: true,
      changes: true,
      body: "RollbackTenantBody",
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  tenantSleep: {
    post: {
      operationId: "sleepTenant",
      summary:
        "Puts the tenant to sleep (its owner or an admin): its request's `sleep` becomes true, a new generation; its control plane and synced pods are scaled to zero, its data and kubeconfig kept.",
      signedIn: true,
      changes: true,
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  tenantWake: {
    post: {
      operationId: "wakeTenant",
      summary:
        "Wakes the tenant (its owner or an admin): its request's `sleep` becomes false, a new generation; it comes back Ready with the same data and kubeconfig.",
      signedIn: true,
      changes: true,
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  tenantSnapshots: {
    post: {
      operationId: "snapshotTenant",
      summary:
        "Asks for a snapshot of the tenant (its owner or an admin): vCluster takes it, and the tenant's `status.snapshots` lists it; a failure is an Event.",
      signedIn: true,
      changes: true,
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  tenantRestore: {
    post: {
      operationId: "restoreTenant",
      summary:
        "Asks for the tenant to be restored from one of its owner's snapshots (its owner or an admin): its control plane goes down, vCluster writes the snapshot back, and it comes up again.",
      signedIn: true,
      changes: true,
      body: "RestoreTenantBody",
      ok: [202, "Tenant"],
      errors: [...SIGNED_IN_ERRORS, 404, 409],
    },
  },
  platformRevisions: {
    get: {
      operationId: "listPlatformRevisions",
      summary:
        "Every PlatformRevision, newest first, each with what the server found it would do to every tenant (admins only).",
      signedIn: true,
      ok: [200, "PlatformRevisionList"],
      errors: [...SIGNED_IN_ERRORS, 403],
    },
  },
  platformRevision: {
    get: {
      operationId: "getPlatformRevision",
      summary: "One PlatformRevision, with what the server found it would do to every tenant (admins only).",
      signedIn: true,
      ok: [200, "PlatformRevision"],
      errors: [...SIGNED_IN_ERRORS, 403, 404],
    },
  },
  signIn: {
    get: {
      operationId: "getSignInInfo",
      summary: "How the command signs in: the issuer, its client and the scopes.",
      signedIn: false,
      ok: [200, "SignInInfo"],
      errors: [503],
    },
  },
  caps: {
    get: {
      operationId: "getCaps",
      summary:
        "What the caller holds across their tenants (tenants, awake ones, their quotas' sums) against the platform's caps per owner.",
      signedIn: true,
      ok: [200, "OwnerCaps"],
      errors: [...SIGNED_IN_ERRORS],
    },
  },
  whoAmI: {
    get: {
      operationId: "whoAmI",
      summary: "Who the caller is, as the server sees them.",
      signedIn: true,
      ok: [200, "WhoAmI"],
      errors: [...SIGNED_IN_ERRORS],
    },
  },
  openApi: {
    get: {
      operationId: "getOpenApiDocument",
      summary: "This document.",
      signedIn: false,
      ok: [200, { text: "application/json", description: "The OpenAPI 3.1 document of /api/v1." }],
      errors: [],
    },
  },
};

/** What each error status means, for its description. */
const ERROR_WORDS: Readonly<Record<number, string>> = {
  400: "The request is not valid: the problems name each field and its rule.",
  401: "No sign-in, or one that was refused (the message says why).",
  403: "Refused: not allowed to the caller, or (signed in by cookie) no valid CSRF token.",
  404: "No such tenant the caller may see (or no such PlatformRevision).",
  409: "In conflict with the tenant's state: the name is taken, it is not Ready yet, or another run holds it.",
  429: "Too many creates (or previews) by this person in a minute.",
  503: "The host cluster or the identity provider did not answer, or (`overloaded`, a preview) the replica runs as many previews as it may: try again (after `Retry-After`, when given).",
};

/** The API's OpenAPI 3.1 document. */
export function tenantsApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [route, operations] of Object.entries(OPERATIONS) as [DocumentedRoute, Record<string, Operation>][]) {
    const path = API_ROUTES[route].replace(/:(\w+)/g, "{$1}");
    paths[path] = Object.fromEntries(
      Object.entries(operations).map(([method, operation]) => [method, operationObject(path, operation)]),
    );
  }
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    info: {
      title: "kubespaces server API",
      version: "v1",
      description:
        "Tenants (a virtual cluster each) as a signed-in person may see and change them: only their own, the owner always the caller. Generated from the server's zod schemas; see docs/self-service.md.",
    },
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerIdToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An ID token of the configured identity provider, for the command's client (device flow).",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: serverCookies(false).session,
          description: `The portal's sealed session cookie (named \`${serverCookies(true).session}\` when the portal's public URL is https). A change made with it must carry its CSRF token in \`${CSRF_HEADER}\`.`,
        },
      },
    },
  };
}

/** The OpenAPI operation object of `operation` at `path`. */
function operationObject(path: string, operation: Operation): Record<string, unknown> {
  const parameters = [
    ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      description: path.includes("/platformrevisions/") ? "The revision's name." : "The tenant's name.",
      schema: { type: "string" },
    })),
    ...(operation.query ?? []).map((q) => ({
      name: q.name,
      in: "query",
      required: false,
      description: q.description,
      schema: { type: "string", enum: q.values },
    })),
  ];
  const [okStatus, okAnswer] = operation.ok;
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    ...(operation.signedIn ? { security: [{ bearerIdToken: [] }, { sessionCookie: [] }] } : { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(operation.body && {
      requestBody: { required: true, content: { "application/json": { schema: ref(operation.body) } } },
    }),
    responses: {
      [okStatus]: answerObject(okAnswer),
      ...Object.fromEntries(
        operation.errors.map((status) => [
          status,
          { description: ERROR_WORDS[status], content: { "application/json": { schema: ref("Error") } } },
        ]),
      ),
    },
  };
}

function answerObject(answer: Answer): Record<string, unknown> {
  if (typeof answer === "string")
    return { description: API_SCHEMAS[answer].description, content: { "application/json": { schema: ref(answer) } } };
  return { description: answer.description, content: { [answer.text]: { schema: { type: "string" } } } };
}

const ref = (name: ApiSchemaName) => ({ $ref: `#/components/schemas/${name}` });

/** Each API schema as JSON Schema, the others it holds by reference. */
function componentSchemas(): Record<string, unknown> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(API_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "input",
    uri: (id) => `#/components/schemas/${id}`,
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
      return [id, rest];
    }),
  );
}
