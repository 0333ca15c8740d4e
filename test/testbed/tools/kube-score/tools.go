//go:build tools

// Package tools pins kube-score (a linter of Kubernetes manifests) for the kubespaces test bed:
// the server's install is scored with it in the end-to-end tier.
package tools

import _ "github.com/zegl/kube-score/cmd/kube-score"
