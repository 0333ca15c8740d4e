// Command cert-manager-controller is the kubespaces test bed's cert-manager: the controllers of
// cert-manager's own controller binary that issue a Certificate from a self-signed or CA issuer,
// run from cert-manager's public packages. Its `cmd/controller` (the separate module
// github.com/cert-manager/cert-manager/controller-binary) is not served by the Go module proxy
// here, and the Venafi SDK it links is refused, so this entry point of ours builds the same
// controller context (pkg/controller) and runs the named controllers with it, with the defaults of
// cert-manager's controller configuration. No webhook runs: the CRDs have no conversion, and the
// webhook only validates and fills in a request's requester.
//
//	cert-manager-controller --kubeconfig FILE [--cluster-resource-namespace NS] [-v N]
//
// Leader election is off (one instance); no metrics or health server listens.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/cert-manager/cert-manager/pkg/controller"
	crapprover "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/approver"
	crca "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/ca"
	crselfsigned "github.com/cert-manager/cert-manager/pkg/controller/certificaterequests/selfsigned"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/issuing"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/keymanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/readiness"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/requestmanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/revisionmanager"
	"github.com/cert-manager/cert-manager/pkg/controller/certificates/trigger"
	"github.com/cert-manager/cert-manager/pkg/controller/clusterissuers"
	"github.com/cert-manager/cert-manager/pkg/controller/issuers"
	logf "github.com/cert-manager/cert-manager/pkg/logs"
	"golang.org/x/sync/errgroup"
	"k8s.io/klog/v2"

	// The issuer kinds the issuers controllers set up (each registers itself).
	_ "github.com/cert-manager/cert-manager/pkg/issuer/ca"
	_ "github.com/cert-manager/cert-manager/pkg/issuer/selfsigned"
)

// controllers are the ones of cert-manager's default set that a Certificate from a SelfSigned or CA
// (Cluster)Issuer goes through: the issuers' readiness, the Certificate's lifecycle, and the
// CertificateRequest's approval and signing. ACME, Vault, Venafi, the ingress and gateway shims
// and the metrics collector are left out.
var controllers = []string{
	issuers.ControllerName,
	clusterissuers.ControllerName,
	trigger.ControllerName,
	keymanager.ControllerName,
	requestmanager.ControllerName,
	issuing.ControllerName,
	readiness.ControllerName,
	revisionmanager.ControllerName,
	crapprover.ControllerName,
	crselfsigned.CRControllerName,
	crca.CRControllerName,
}

// Defaults of cert-manager v1.21.1's controller configuration
// (internal/apis/config/controller/v1alpha1/defaults.go), which is internal to its module.
const (
	kubernetesAPIQPS                = 20
	kubernetesAPIBurst              = 50
	concurrentWorkers               = 5
	requestMinimumBackoff           = time.Hour
	requestMaximumBackoff           = 32 * time.Hour
	defaultClusterResourceNamespace = "kube-system"
)

var copiedAnnotationPrefixes = []string{"*", "-kubectl.kubernetes.io/", "-fluxcd.io/", "-argocd.argoproj.io/"}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the API server (required: this runs outside the cluster)")
	clusterResourceNamespace := flag.String("cluster-resource-namespace", defaultClusterResourceNamespace,
		"namespace of the Secrets that ClusterIssuers refer to (the chart sets cert-manager's own)")
	klog.InitFlags(flag.CommandLine) // -v and the other klog flags, as cert-manager's binary takes them
	flag.Parse()
	if *kubeconfig == "" {
		fmt.Fprintln(os.Stderr, "cert-manager-controller: --kubeconfig is required")
		os.Exit(2)
	}

	logf.InitLogs()
	defer logf.FlushLogs()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	ctx = logf.NewContext(ctx, logf.Log, "controller")

	if err := run(ctx, *kubeconfig, *clusterResourceNamespace); err != nil {
		logf.Log.Error(err, "cert-manager-controller stopped")
		logf.FlushLogs()
		os.Exit(1)
	}
}

// run builds the controller context as cert-manager's controller binary does, starts each
// controller and then the shared informers they registered, and returns when ctx ends or a
// controller fails.
func run(ctx context.Context, kubeconfig, clusterResourceNamespace string) error {
	log := logf.FromContext(ctx)
	factory, err := controller.NewContextFactory(ctx, controller.ContextOptions{
		Kubeconfig:         kubeconfig,
		KubernetesAPIQPS:   kubernetesAPIQPS,
		KubernetesAPIBurst: kubernetesAPIBurst,
		IssuerOptions:      controller.IssuerOptions{ClusterResourceNamespace: clusterResourceNamespace},
		CertificateOptions: controller.CertificateOptions{
			CopiedAnnotationPrefixes:                 copiedAnnotationPrefixes,
			CertificateRequestMinimumBackoffDuration: requestMinimumBackoff,
			CertificateRequestMaximumBackoffDuration: requestMaximumBackoff,
		},
	})
	if err != nil {
		return err
	}
	base, err := factory.Build()
	if err != nil {
		return err
	}

	group, ctx := errgroup.WithContext(ctx)
	for _, name := range controllers {
		construct, ok := controller.Known()[name]
		if !ok {
			return fmt.Errorf("controller %s is not registered", name)
		}
		loop, err := construct(factory)
		if err != nil {
			return fmt.Errorf("controller %s: %w", name, err)
		}
		group.Go(func() error {
			log.Info("starting controller", "controller", name)
			return loop.Run(concurrentWorkers, ctx)
		})
	}
	// After the controllers: each registered the informers it needs with these factories.
	base.SharedInformerFactory.Start(ctx.Done())
	base.KubeSharedInformerFactory.Start(ctx.Done())
	base.HTTP01ResourceMetadataInformersFactory.Start(ctx.Done())

	err = group.Wait()
	base.HTTP01ResourceMetadataInformersFactory.Shutdown()
	base.KubeSharedInformerFactory.Shutdown()
	base.SharedInformerFactory.Shutdown()
	return err
}
