/**
 * Where tenants' snapshots are kept: an S3-compatible bucket the platform configures for the
 * server (AWS S3, MinIO, Ceph, ...). vCluster's own snapshot and restore write and read the objects
 * (vCluster's `s3` storage options, made here); the server only names them and checks that one
 * exists before a restore brings a tenant down.
 *
 * A snapshot's object is `<prefix>/<owner key>/<snapshot>.tar.gz`, where the owner key is a digest
 * of the tenant's owner: a restore looks under its own tenant's owner only, so a snapshot can never
 * be restored into another owner's tenant, whatever name is asked for.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import aws4 from "aws4";
import { z } from "zod";

/** The snapshot store's part of the server's configuration. */
export const snapshotsConfigSchema = z
  .strictObject({
    s3: z
      .strictObject({
        bucket: z.string().min(1).describe("The bucket the snapshots go to."),
        url: z
          .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
          .optional()
          .describe(
            "The endpoint of an S3-compatible store (MinIO, Ceph, ...), as the tenants' control planes reach it; unset: AWS S3.",
          ),
        region: z.string().min(1).default("us-east-1").describe("The bucket's region."),
        forcePathStyle: z
          .boolean()
          .default(false)
          .describe("Address the bucket in the path, not the host name (most S3-compatible stores need it)."),
        prefix: z.string().default("kubespaces").describe("The folder of the bucket the snapshots go under."),
        accessKeyIdFile: z.string().min(1).describe("A file holding the access key ID (mounted from a Secret)."),
        secretAccessKeyFile: z
          .string()
          .min(1)
          .describe("A file holding the secret access key (mounted from a Secret)."),
      })
      .describe("An S3-compatible bucket."),
  })
  .describe(
    "Where tenants' snapshots go (`kubespaces tenant snapshot`); unset: snapshots and restores are refused. The keys are read from files, so that they are in no configuration.",
  );

/** The snapshot store's configuration, as written. */
export type SnapshotsConfigInput = z.input<typeof snapshotsConfigSchema>;
/** The snapshot store's configuration, with its defaults. */
export type SnapshotsConfig = z.output<typeof snapshotsConfigSchema>;

/** The store's credentials. */
interface Credentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** One snapshot's object in the store. */
export interface SnapshotObject {
  /** The object's key in the bucket. */
  readonly key: string;
  /** vCluster's storage options for it (the JSON its snapshot request's Secret and restore read); holds the keys. */
  readonly options: string;
  /** Its `s3://bucket/key` URL, as vCluster's snapshot request names it. */
  readonly url: string;
}

/** The store the server's configuration names. */
export class SnapshotStore {
  private readonly credentials: () => Credentials;

  constructor(private readonly config: SnapshotsConfig["s3"]) {
    // Read at each use: a rotated Secret's files change under a running server.
    this.credentials = () => ({
      accessKeyId: readFileSync(config.accessKeyIdFile, "utf8").trim(),
      secretAccessKey: readFileSync(config.secretAccessKeyFile, "utf8").trim(),
    });
  }

  /** Snapshot `snapshot` of a tenant owned by `owner`. */
  objectOf(owner: string, snapshot: string): SnapshotObject {
    const ownerKey = createHash("sha256").update(owner).digest("hex").slice(0, 32);
    const key = [this.config.prefix, ownerKey, `${snapshot}.tar.gz`].filter(Boolean).join("/");
    const { accessKeyId, secretAccessKey } = this.credentials();
    const s3 = {
      bucket: this.config.bucket,
      key,
      region: this.config.region,
      "access-key-id": accessKeyId,
      "secret-access-key": secretAccessKey,
      "force-path-style": this.config.forcePathStyle,
      ...(this.config.url && { url: this.config.url }),
    };
    return { key, options: JSON.stringify({ type: "s3", s3 }), url: `s3://${this.config.bucket}/${key}` };
  }

  /** Whether `object` exists in the bucket (a signed HEAD request). */
  async exists(object: SnapshotObject): Promise<boolean> {
    const endpoint = new URL(this.config.url ?? `https://s3.${this.config.region}.amazonaws.com`);
    const path = this.config.forcePathStyle ? `/${this.config.bucket}/${object.key}` : `/${object.key}`;
    const host = this.config.forcePathStyle ? endpoint.host : `${this.config.bucket}.${endpoint.host}`;
    const signed = aws4.sign(
      { host, path, method: "HEAD", service: "s3", region: this.config.region, headers: {} },
      this.credentials(),
    );
    const response = await fetch(`${endpoint.protocol}//${host}${path}`, {
      method: "HEAD",
      headers: signed.headers as Record<string, string>,
    });
    if (response.status === 404) return false;
    if (!response.ok) throw new Error(`the snapshot store answered ${response.status} for ${object.url}`);
    return true;
  }
}
