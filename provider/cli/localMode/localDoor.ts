/**
 * The command's door into the tenants service in local mode: the recorded login turned into the
 * service's ports (requests and run journals as files in the command's home, a stack per tenant in
 * the login's backend, the host the one rule picks) and the actor (you: whoever runs the command
 * holds the host's credentials, so it acts as the platform's admin).
 */
import { planOf } from "../../tenants/tenantPlan";
import { readFileSync } from "node:fs";
import { AutomationStacks } from "../../tenants/automation/automationStacks";
import { FileRequestStore } from "../../tenants/local/fileRequestStore";
import { FileRunJournals } from "../../tenants/local/fileRunJournals";
import type { Actor, HostPort } from "../../tenants/ports";
import { TenantsService } from "../../tenants/tenantsService";
import type { TenantPlatformInput } from "../../model/tenantPlatformSchema";
import { homeDir, passphraseFile } from "../cliHome";
import { chooseHost } from "../../hosts/hostChoice";
import { hasTestbed, testbedEndpoint } from "../../hosts/testbedHost";
import { ENGINE_INTERRUPT } from "../interrupts";
import { currentUser, projectOf, readLoginSettings, type LoginSettings } from "../loginSettings";
import type { TenantOperations, TenantsDoor } from "../tenantsDoor";
import { legacyNote } from "./legacyLayout";
import { followLocally } from "./localFollow";
import { loadHostKubeConfig } from "../../lifecycle/hostAccess";
import { readTenantQuota } from "../../hosts/tenantQuotaRead";
import { CoreV1Api } from "@kubernetes/client-node";
import type { QuotaUsage } from "../../tenantResource/tenantReplies";

/** The default state backend: a folder in the command's home. */
export const defaultBackendUrl = (): string => `file://${homeDir("state")}`;

/** Everything a tenant command needs. */
export interface LocalDoor {
  /** The recorded login. */
  readonly settings: LoginSettings;
  /** The tenants service over the command's ports. */
  readonly service: TenantsService;
  /** You. */
  readonly actor: Actor;
  /** The request files. */
  readonly requests: FileRequestStore;
  /** The host cluster. */
  readonly host: HostPort;
  /** The ResourceQuota of a tenant namespace on the host; undefined while it has none. */
  readonly hostQuota: (namespace: string) => Promise<QuotaUsage | undefined>;
}

/** The door of the recorded login, in local mode. */
export function localDoor(settings: LoginSettings = readLoginSettings()): LocalDoor {
  const project = projectOf(settings);
  const requests = new FileRequestStore(homeDir("tenants", project));
  const runs = new FileRunJournals(homeDir("runs", project));
  const stacks = new AutomationStacks({
    backendUrl: settings.backendUrl ?? defaultBackendUrl(),
    project,
    workRoot: homeDir("engine"),
    passphrase: () => readFileSync(passphraseFile(), "utf8").trim(),
  });
  const host = chooseHost(settings);
  const service = new TenantsService(
    { requests, runs, stacks, host },
    { policy: (settings.platform ?? {}) as TenantPlatformInput },
  );
  const actor = { owner: currentUser(settings), groups: [], isAdmin: true };
  return { settings, service, actor, requests, host, hostQuota: (namespace) => readHostQuota(host, namespace) };
}

/** The ResourceQuota of tenant namespace `namespace` as `host` holds it, read with the host's credentials (you hold them). */
async function readHostQuota(host: HostPort, namespace: string): Promise<QuotaUsage | undefined> {
  const target = await host.resolve(() => undefined);
  return readTenantQuota(loadHostKubeConfig(target.kubeconfig).makeApiClient(CoreV1Api), namespace);
}

/**
 * The tenant commands' door over `local`: the tenants service itself, as you, with what only the
 * command's own stacks have: owners named on the command line, the test bed's ports and
 * the old layout's note.
 */
export function localTenantsDoor(local: LocalDoor): TenantsDoor {
  const { service, actor, settings } = local;
  const tenants: TenantOperations = service;
  return {
    tenants,
    actor,
    follow: (name, until, options) => followLocally(tenants, actor, name, until, options),
    onInterrupt: ENGINE_INTERRUPT,
    previews: {
      preview: async (name, request, as, options) => planOf(await service.preview(name, request, as, options)),
      storedRequest: async (name, as) => (await service.get(name, as)).spec,
    },
    namesOwners: true,
    quota: async (name) => {
      const { namespace } = (await service.get(name, actor)).status;
      return namespace ? local.hostQuota(namespace) : undefined;
    },
    // The test bed's tenants' API names do not resolve here; its loopback port for each reaches it.
    ...(!settings.context && hasTestbed() && { localEndpoint: (name, namespace) => testbedEndpoint(namespace, name) }),
    listNote: () => legacyNote(settings),
  };
}
