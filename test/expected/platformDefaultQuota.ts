/**
 * What every tenant's ResourceQuota holds by the platform's default policy beside CPU, memory and
 * storage (ephemeral storage and object counts), as the unit and end-to-end tests expect it. Written
 * here by hand, never read from the code under test, so that a changed default fails the tests.
 */
export const PLATFORM_DEFAULT_QUOTA = {
  "requests.ephemeral-storage": "32Gi",
  "limits.ephemeral-storage": "32Gi",
  pods: "50",
  services: "20",
  persistentvolumeclaims: "20",
  secrets: "100",
  configmaps: "100",
  "services.nodeports": "0",
  "services.loadbalancers": "0",
  replicationcontrollers: "0",
  resourcequotas: "1",
} as const;
