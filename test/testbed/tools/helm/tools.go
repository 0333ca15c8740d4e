//go:build tools

// Package tools pins the helm CLI at the version that pulumi-kubernetes
// v4.25.0 embeds (helm.sh/helm/v3 v3.18.6), only to check the vCluster
// stand-in chart renders (`helm template`/`helm lint`); tests do not need it.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
