"""The demo tenant team-atlas with its own virtual cluster, exposed under the configured base domain.

The same tenant as examples/typescript/quickstart/index.ts, declared with the generated Python SDK
(pulumi_kubespaces): the platform team's policy, and the team's request within it. Set
`vclusterChartPath` to the test bed's chart on the local test bed.
"""

import pulumi
import pulumi_kubespaces as kubespaces

config = pulumi.Config()
testbed_chart = config.get("vclusterChartPath")

# The platform team's policy: where tenants are published, and (on the test bed) the chart.
platform = kubespaces.TenantPlatformArgs(
    exposure=kubespaces.TenantPlatformExposureArgs(
        base_domain=config.require("baseDomain"),
        issuer_ref=kubespaces.TenantPlatformExposureIssuerRefArgs(name=config.require("issuer")),
    ),
    chart=kubespaces.TenantPlatformChartArgs(local_path=testbed_chart) if testbed_chart else None,
)

# The team's request.
atlas = kubespaces.Tenant(
    "team-atlas",
    owner="alice@example.com",
    resources=kubespaces.TenantResourcesArgs(cpu="8", memory="16Gi", storage="50Gi"),
    # Nothing provisions volumes on the test bed.
    vcluster=kubespaces.TenantVclusterArgs(
        values_overrides={"controlPlane": {"statefulSet": {"persistence": {"volumeClaim": {"enabled": False}}}}},
    )
    if testbed_chart
    else None,
    platform=platform,
)

pulumi.export("namespace", atlas.namespace)
pulumi.export("apiServerUrl", atlas.api_server_url)
pulumi.export("appsDomain", atlas.apps_domain)
pulumi.export("kubeconfigSecretRef", atlas.kubeconfig_secret_ref)
pulumi.export("status", atlas.status)
pulumi.export("kubeconfig", atlas.kubeconfig)
