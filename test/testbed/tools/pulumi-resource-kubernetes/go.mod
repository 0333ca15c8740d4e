// Pins the sources of pulumi-resource-kubernetes v4.25.0 for the kubespaces
// test bed. It is not built from here: testbed.sh copies the provider module
// (and the sdk module its go.mod replaces as ../sdk) out of the module cache,
// generates the embedded schema, and builds with the provider's own go.mod.
module kubespaces.io/testbed/tools/pulumi-resource-kubernetes

go 1.24.7

require (
	// pulumi-kubernetes commit f47bc2d6f199 = release v4.25.0 (no Go tags).
	github.com/pulumi/pulumi-kubernetes/provider/v4 v4.0.0-20260115033456-f47bc2d6f199
	// The tagged sdk/v4.25.0 stands for the provider's `replace ../sdk`.
	github.com/pulumi/pulumi-kubernetes/sdk/v4 v4.25.0
)
