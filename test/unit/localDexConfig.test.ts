/** The local default Dex's configuration: what it allows, who can sign in, and the inputs it refuses. */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  CLI_CLIENT_ID,
  LOCAL_ADMIN_GROUP,
  LOCAL_DEX_NOTICE,
  LOCAL_DEX_USERS,
  localDexConfig,
  localDexConfigYaml,
  PORTAL_CLIENT_ID,
  PORTAL_SECRET_ENV,
} from "../../provider/server/auth/localDexConfig";
import { thrownBy } from "./support/thrown";

const input = {
  port: 5556,
  portalRedirectUris: ["http://127.0.0.1:8080/auth/callback"],
  storageFile: "/var/lib/kubespaces/dex.sqlite",
};

describe("localDexConfig", () => {
  it("is Dex's whole configuration for the local default", () => {
    expect(localDexConfig(input)).toEqual({
      issuer: "http://127.0.0.1:5556/dex",
      storage: { type: "sqlite3", config: { file: "/var/lib/kubespaces/dex.sqlite" } },
      web: { http: "127.0.0.1:5556" },
      frontend: { issuer: "kubespaces LOCAL DEFAULT sign-in (not for real users)" },
      logger: { level: "info", format: "text" },
      oauth2: {
        grantTypes: ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
        responseTypes: ["code"],
        skipApprovalScreen: true,
      },
      enablePasswordDB: true,
      staticPasswords: [
        {
          email: "alice@example.com",
          hash: LOCAL_DEX_USERS[0]!.passwordHash,
          username: "alice",
          userID: "local-alice",
          groups: ["team-a"],
        },
        {
          email: "bob@example.com",
          hash: LOCAL_DEX_USERS[1]!.passwordHash,
          username: "bob",
          userID: "local-bob",
          groups: ["team-b"],
        },
        {
          email: "admin@example.com",
          hash: LOCAL_DEX_USERS[2]!.passwordHash,
          username: "admin",
          userID: "local-admin",
          groups: [LOCAL_ADMIN_GROUP],
        },
      ],
      staticClients: [
        {
          id: PORTAL_CLIENT_ID,
          name: "kubespaces portal (local default)",
          secretEnv: PORTAL_SECRET_ENV,
          redirectURIs: ["http://127.0.0.1:8080/auth/callback"],
        },
        { id: CLI_CLIENT_ID, name: "kubespaces command (local default)", public: true },
      ],
    });
  });

  it("keeps Dex's state in memory when no storage file is given", () => {
    const { storageFile: _file, ...inMemory } = input;
    expect(localDexConfig(inMemory).storage).toEqual({ type: "memory", config: {} });
  });

  it("gives each user a bcrypt hash of its own, and one user the admin group", () => {
    const hashes = LOCAL_DEX_USERS.map((user) => user.passwordHash);
    for (const hash of hashes) expect(hash).toMatch(/^\$2[aby]\$10\$[./A-Za-z0-9]{53}$/);
    expect(new Set(hashes).size).toBe(hashes.length);
    expect(LOCAL_DEX_USERS.filter((user) => user.groups.includes(LOCAL_ADMIN_GROUP)).map((u) => u.email)).toEqual([
      "admin@example.com",
    ]);
  });

  it("refuses every broken input at once, naming the field and the rule", () => {
    const error = thrownBy(() =>
      localDexConfig({ port: 0, portalRedirectUris: ["/auth/callback", "ftp://x/cb"], storageFile: "dex.sqlite" }),
    );
    expect(error.message).toBe(
      "local Dex configuration: port 0 must be an integer from 1 to 65535; " +
        'portalRedirectUris[0] "/auth/callback" must be an absolute http or https URL; ' +
        'portalRedirectUris[1] "ftp://x/cb" must be an absolute http or https URL; ' +
        'storageFile "dex.sqlite" must be an absolute path',
    );
    expect(thrownBy(() => localDexConfig({ port: 5556, portalRedirectUris: [] })).message).toBe(
      "local Dex configuration: portalRedirectUris must list at least one URL",
    );
  });
});

describe("localDexConfigYaml", () => {
  it("opens with the local-default notice and parses back to the configuration", () => {
    const text = localDexConfigYaml(input);
    expect(text.split("\n")[0]).toBe(`# ${LOCAL_DEX_NOTICE}.`);
    expect(parse(text)).toEqual(localDexConfig(input));
  });

  it("holds no client secret: Dex reads the portal's from its environment", () => {
    const portal = (parse(localDexConfigYaml(input)) as { staticClients: Record<string, unknown>[] }).staticClients[0]!;
    expect(portal).not.toHaveProperty("secret");
    expect(portal.secretEnv).toBe(PORTAL_SECRET_ENV);
  });
});
