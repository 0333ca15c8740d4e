//go:build tools

// Package tools pins the vCluster control plane (cmd/vcluster) and, in the same module, its chart
// source (chart/) for the kubespaces test bed.
package tools

import _ "github.com/loft-sh/vcluster/cmd/vcluster"
