//go:build tools

// Package tools pins the Pulumi CLI (engine) for the kubespaces test bed.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
