"""The demo tenant team-atlas with its own virtual cluster, exposed under the configured base domain.

The same tenant as examples/typescript/quickstart/index.ts, declared with the generated Python SDK
(pulumi_kubespaces). Set `vclusterChartPath` to the vCluster stand-in chart
(test/fixtures/vcluster-stand-in) on the local test bed, where the real vCluster images cannot run.
"""

import pulumi
import pulumi_kubespaces as kubespaces

config = pulumi.Config()
stand_in_chart = config.get("vclusterChartPath")

atlas = kubespaces.Tenant(
    "team-atlas",
    owner="alice@example.com",
    resources=kubespaces.TenantResourcesArgs(cpu="8", memory="16Gi", storage="50Gi"),
    exposure=kubespaces.TenantExposureArgs(
        base_domain=config.require("baseDomain"),
        issuer_ref=kubespaces.TenantExposureIssuerRefArgs(name=config.require("issuer")),
    ),
    vcluster=kubespaces.TenantVclusterArgs(
        chart=kubespaces.TenantVclusterChartArgs(local_path=stand_in_chart),
        # Nothing provisions volumes on the test bed.
        values_overrides={"controlPlane": {"statefulSet": {"persistence": {"volumeClaim": {"enabled": False}}}}},
    )
    if stand_in_chart
    else None,
)

pulumi.export("namespace", atlas.namespace)
pulumi.export("apiServerUrl", atlas.api_server_url)
pulumi.export("appsDomain", atlas.apps_domain)
pulumi.export("kubeconfigSecretRef", atlas.kubeconfig_secret_ref)
pulumi.export("status", atlas.status)
pulumi.export("kubeconfig", atlas.kubeconfig)
