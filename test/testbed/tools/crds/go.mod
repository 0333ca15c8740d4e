module kubespaces.io/testbed/tools/crds

go 1.26.8

// Not built: these modules are required only for the CRD manifests they hold; go.sum pins their hashes.
require (
	github.com/cert-manager/cert-manager v1.21.1
	sigs.k8s.io/gateway-api v1.6.1
)
