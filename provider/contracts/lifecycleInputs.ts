/**
 * What the lifecycle resources' inputs have in common: the host kubeconfig each reads the host
 * with, and which inputs the component adds from Pulumi when it registers one (the render fills
 * in the rest).
 */
import { z } from "zod";

/** The host kubeconfig input of a lifecycle resource; secret. */
export const hostKubeconfigInput = () =>
  z.string().optional().meta({ secret: true }).describe("Host kubeconfig; absent means the ambient one.");

/**
 * Inputs that come from Pulumi, not from the render: the host kubeconfig, the host identity the
 * check recorded and the Helm release's revision.
 */
export const PULUMI_SUPPLIED_INPUTS = ["hostKubeconfig", "hostUid", "releaseRevision"] as const;

/** One of the inputs that come from Pulumi. */
export type PulumiSuppliedInput = (typeof PULUMI_SUPPLIED_INPUTS)[number];
