/**
 * The one definition of a Tenant's inputs: a team's request and the platform's policy beside it.
 * The TypeScript `TenantArgs` types, schema.json and the inputs table of docs/reference.md are
 * generated from it (`npm run generate`), so a description written here reaches every language.
 */
import { z } from "zod";
import { tenantPlatformSchema } from "./tenantPlatformSchema";
import { tenantRequestShape } from "./tenantRequestSchema";

export { DNS_LABEL, DNS_SUBDOMAIN } from "./schemaParts";

/** The Tenant's inputs as plain values (after any Outputs have resolved): a request and the platform's policy. */
export const tenantArgsSchema = z
  .strictObject({
    ...tenantRequestShape,
    // Plain as a whole: its exposure and networkPolicy decide which children exist.
    platform: tenantPlatformSchema.prefault({}).meta({ plain: true }),
  })
  .describe(
    "A team's virtual cluster on the shared host cluster: the team's request, and the platform's policy it is held to.",
  );

/** Tenant inputs as a user writes them: optional fields may be left out. */
export type TenantArgsInput = z.input<typeof tenantArgsSchema>;
/** Tenant inputs with every default filled in. */
export type TenantArgsComplete = z.output<typeof tenantArgsSchema>;
