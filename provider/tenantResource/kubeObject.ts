/** A Kubernetes object as plain data, of any kind: what the Tenant resource's installation is made of. */
import type { TypeMeta } from "../contracts/typeMeta";

/** An object's name, namespace, labels and annotations. */
export interface KubeObjectMetadata {
  /** Object name. */
  readonly name: string;
  /** Namespace, for namespaced kinds. */
  readonly namespace?: string;
  /** Labels. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Annotations. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A Kubernetes object: its kind, metadata and the fields of that kind (`spec`, `rules`, `subjects`, ...). */
export interface KubeObject extends TypeMeta {
  /** Name, namespace, labels and annotations. */
  readonly metadata: KubeObjectMetadata;
  /** The kind's own fields. */
  readonly [field: string]: unknown;
}

/** An object of the installation, with its role and, for an RBAC role, the reason of each rule. */
export interface InstalledObject {
  /** What it is in the installation; the Pulumi component names its child `<name>-<role>`. */
  readonly role: string;
  /** The object. */
  readonly object: KubeObject;
  /** Why each rule of an RBAC role is granted, in the order of its `rules` (the YAML prints them as comments). */
  readonly ruleReasons?: readonly string[];
}

/** Labels of every object of the installation. */
export const PART_OF_KUBESPACES: Readonly<Record<string, string>> = { "app.kubernetes.io/part-of": "kubespaces" };
