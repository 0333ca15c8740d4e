/**
 * Where things are inside the server's pod, written once: the configuration file and the Secret's
 * files the configuration names, the writable folders of a read-only root file system, and the
 * user the image runs as (deploy/image/Containerfile creates it; a unit test checks they agree).
 */
import path from "node:path";

/**
 * The uid and gid the server runs as: the image's own `kubespaces` user, no root. High, apart from
 * the users a host or a base image has (1000 is the Node image's `node` and often a node's first
 * login), as manifest linters ask (kube-score: 10000 or above); 65532 is the distroless `nonroot`.
 */
export const SERVER_UID = 65532;

/** Where the ConfigMap's configuration file is mounted. */
export const CONFIG_DIR = "/etc/kubespaces/config";
/** The configuration file's key in the ConfigMap, and its name in CONFIG_DIR. */
export const CONFIG_FILE_KEY = "server.yaml";
/** The configuration file the server is started with. */
export const CONFIG_FILE = path.posix.join(CONFIG_DIR, CONFIG_FILE_KEY);

/** Where the server's container finds the Secret's sign-in files (the portal client's secret, the session key). */
export const SIGN_IN_SECRETS_DIR = "/etc/kubespaces/sign-in";
/** Where the home's init container finds the stacks' passphrase (the server container does not mount it). */
export const PASSPHRASE_DIR = "/etc/kubespaces/state";

/**
 * The one writable folder besides /tmp (an emptyDir): HOME, so that Helm's and npm's caches land
 * here, and the parent of the two homes below.
 */
export const WORK_DIR = "/var/lib/kubespaces";
/**
 * `$KUBESPACES_HOME`: the engine's workspaces, and the passphrase file the init container copies
 * in. A folder below the emptyDir, because an emptyDir's own mode (0777) is one the home's trust
 * check refuses.
 */
export const KUBESPACES_HOME = path.posix.join(WORK_DIR, "home");
/** `$PULUMI_HOME`: what the Pulumi CLI writes (workspace settings, locks). The plugins are on PATH, in the image. */
export const PULUMI_HOME = path.posix.join(WORK_DIR, "pulumi");
