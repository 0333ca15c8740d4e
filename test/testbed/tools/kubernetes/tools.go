//go:build tools

// Package tools pins the Kubernetes control plane (kube-apiserver,
// kube-controller-manager, kube-scheduler) for the kubespaces test bed.
// Built by ../../testbed.sh build; the replace block maps every staging module
// of k8s.io/kubernetes to its published v0.36.x twin.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
