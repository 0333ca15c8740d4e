/**
 * The configuration of the LOCAL DEFAULT identity provider that `kubespaces server` starts when
 * no issuer is configured: Dex on loopback, with static users whose passwords are published here.
 * It exists so that the portal and `kubespaces login` can be tried on one machine; anyone real
 * signs in through the company's own issuer, configured in its place. Pure: localDex.ts writes it
 * and starts Dex with it.
 */
import { stringify } from "yaml";

/** What the local default says about itself wherever it shows up: the config file, the log, Dex's pages. */
export const LOCAL_DEX_NOTICE =
  "LOCAL DEFAULT identity provider (Dex on loopback, static users with published passwords): for trying kubespaces on this machine only; configure your own issuer for real people";

/** The portal's client: confidential, its secret made anew at each start. */
export const PORTAL_CLIENT_ID = "kubespaces-portal";

/** The command's client (`kubespaces login`): public, for the device flow. */
export const CLI_CLIENT_ID = "kubespaces-cli";

/** The group of the local admin user (the server's default `adminGroup`). */
export const LOCAL_ADMIN_GROUP = "kubespaces-admins";

/**
 * The environment variable Dex reads the portal client's secret from (`secretEnv`), so that the
 * secret is never written to the config file.
 */
export const PORTAL_SECRET_ENV = "KUBESPACES_DEX_PORTAL_SECRET";

/** A static user of the local default. */
export interface LocalDexUser {
  /** The email Dex puts in the `email` claim (verified): the login name on Dex's form. */
  readonly email: string;
  /** The password: published, local only. */
  readonly password: string;
  /** The `groups` claim (when the `groups` scope is asked for). */
  readonly groups: readonly string[];
  /** Dex's `username` (the `name` claim). */
  readonly username: string;
  /** Dex's user id (the source of the opaque `sub`). */
  readonly userID: string;
  /** The bcrypt hash of `password` that Dex checks against. */
  readonly passwordHash: string;
}

/**
 * The local default's users: two people on plain teams and one admin. The hashes are bcrypt, cost
 * 10, computed once from the passwords beside them with Go's golang.org/x/crypto/bcrypt v0.47.0
 * (`bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)`, in a throwaway module). A
 * hash that does not match its password shows as a failed sign-in at Dex's form.
 */
export const LOCAL_DEX_USERS: readonly LocalDexUser[] = [
  {
    email: "alice@example.com",
    password: "alice-local-only",
    groups: ["team-a"],
    username: "alice",
    userID: "local-alice",
    passwordHash: "$2a$10$GCxlRN8JNkxl0UTcOB8hleruqm1ERfPqe.3q4mwfLyuirgYuAdOny",
  },
  {
    email: "bob@example.com",
    password: "bob-local-only",
    groups: ["team-b"],
    username: "bob",
    userID: "local-bob",
    passwordHash: "$2a$10$HtUBkxy2dAhGW8ru7MY9levLzCyRujH/JEoDKGW2Mmz2vxB3TBRCS",
  },
  {
    email: "admin@example.com",
    password: "admin-local-only",
    groups: [LOCAL_ADMIN_GROUP],
    username: "admin",
    userID: "local-admin",
    passwordHash: "$2a$10$hvcR6ZxZHKLFYrFNbAwqy.QOsE5hxPXyR14W3oJ./qvcO5E3urXBy",
  },
];

/** What the local default's config depends on. */
export interface LocalDexConfigInput {
  /** The loopback port Dex listens on (1–65535). */
  readonly port: number;
  /** Where Dex may send the portal's browser back to (absolute http or https URLs), e.g. `http://127.0.0.1:8080/auth/callback`. */
  readonly portalRedirectUris: readonly string[];
  /**
   * Dex's sqlite database (an absolute path): its signing keys and refresh tokens outlive a
   * restart, so a `kubespaces login` does too.
   * @default none: memory storage, gone when Dex stops
   */
  readonly storageFile?: string;
}

/** The issuer of the local default on `port`. */
export const localDexIssuer = (port: number): string => `http://127.0.0.1:${port}/dex`;

/** The grants the local default allows: the portal's code flow, the command's device flow, and refreshing either. */
export const LOCAL_DEX_GRANT_TYPES = [
  "authorization_code",
  "refresh_token",
  "urn:ietf:params:oauth:grant-type:device_code",
] as const;

/** Dex's configuration for the local default, as the object its YAML file holds; throws on an input that breaks a rule. */
export function localDexConfig(input: LocalDexConfigInput): Record<string, unknown> {
  checkInput(input);
  return {
    issuer: localDexIssuer(input.port),
    storage: input.storageFile
      ? { type: "sqlite3", config: { file: input.storageFile } }
      : { type: "memory", config: {} },
    web: { http: `127.0.0.1:${input.port}` },
    // The name on every page of Dex's, so a person signing in sees that this is the local default.
    frontend: { issuer: "kubespaces LOCAL DEFAULT sign-in (not for real users)" },
    logger: { level: "info", format: "text" },
    oauth2: {
      grantTypes: [...LOCAL_DEX_GRANT_TYPES],
      responseTypes: ["code"],
      // Signing in is the consent: there is no third party to approve.
      skipApprovalScreen: true,
    },
    enablePasswordDB: true,
    staticPasswords: LOCAL_DEX_USERS.map((user) => ({
      email: user.email,
      hash: user.passwordHash,
      username: user.username,
      userID: user.userID,
      groups: [...user.groups],
    })),
    staticClients: [
      {
        id: PORTAL_CLIENT_ID,
        name: "kubespaces portal (local default)",
        secretEnv: PORTAL_SECRET_ENV,
        redirectURIs: [...input.portalRedirectUris],
      },
      {
        id: CLI_CLIENT_ID,
        name: "kubespaces command (local default)",
        public: true,
        // No redirectURIs: Dex then allows a public client its device callback and loopback
        // redirects. Listing any would require listing `/device/callback` too (server/oauth2.go,
        // validateRedirectURI).
      },
    ],
  };
}

/** The local default's config file: the notice as a comment, then `localDexConfig(input)` as YAML. */
export function localDexConfigYaml(input: LocalDexConfigInput): string {
  const header = [
    `# ${LOCAL_DEX_NOTICE}.`,
    "# Written by `kubespaces server` at each start (provider/server/auth/localDexConfig.ts); edits are lost.",
    `# The portal's client secret is not here: Dex reads it from ${PORTAL_SECRET_ENV}.`,
  ];
  return `${header.join("\n")}\n${stringify(localDexConfig(input))}`;
}

/** Every rule the input breaks, as one error naming each field. */
function checkInput(input: LocalDexConfigInput): void {
  const problems: string[] = [];
  if (!Number.isInteger(input.port) || input.port < 1 || input.port > 65535)
    problems.push(`port ${input.port} must be an integer from 1 to 65535`);
  if (input.portalRedirectUris.length === 0) problems.push("portalRedirectUris must list at least one URL");
  input.portalRedirectUris.forEach((uri, i) => {
    if (!isHttpUrl(uri))
      problems.push(`portalRedirectUris[${i}] ${JSON.stringify(uri)} must be an absolute http or https URL`);
  });
  if (input.storageFile !== undefined && !input.storageFile.startsWith("/"))
    problems.push(`storageFile ${JSON.stringify(input.storageFile)} must be an absolute path`);
  if (problems.length > 0) throw new Error(`local Dex configuration: ${problems.join("; ")}`);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
