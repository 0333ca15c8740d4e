//go:build tools

// Package tools pins the helm CLI at the version that pulumi-kubernetes
// v4.25.0 embeds (helm.sh/helm/v3 v3.18.6): the test bed packages the vCluster
// chart and renders cert-manager's CRD templates with it.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
