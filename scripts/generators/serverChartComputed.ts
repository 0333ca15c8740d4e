/**
 * The fields of the render that the component computes from values rather than holds as given,
 * which sentinels cannot turn into templates: each is written by a named template of its own,
 * written here, and found in the render by its value (the component's own function of the
 * options), so that a field that moves is still found and one that is no longer there stops the
 * generator. test/e2e/serverChart.test.ts holds each to the component with Helm, over inputs that
 * exercise it.
 */
import type { ServerInstallOptions } from "../../provider/serverInstall/serverInstallOptions";
import { BASE_EGRESS_PORTS, egressPorts } from "../../provider/serverInstall/serverNetworkPolicy";

/** A computed field. */
export interface ComputedField {
  /** What the field holds for `options`, as the component renders it. */
  readonly value: (options: ServerInstallOptions) => unknown;
  /** The named template that writes it (YAML, below its key). */
  readonly template: string;
  /** The named template's definition, for `_helpers.tpl`. */
  readonly definition: string;
}

/**
 * URL schemes the server dials (state backends, the issuer, the snapshot store). Each one's port
 * is read from the component's own egressPorts(), beyond the ports it always opens; a scheme not
 * listed here gets no port of its own in the chart.
 */
const DIALED_SCHEMES = ["postgres", "postgresql", "http", "https", "s3", "gs", "azblob"] as const;

const EGRESS_PORTS_TEMPLATE = "kubespaces-server.egressPorts";

/** What a URL of `scheme` without a port adds to the ports the server dials, per the component. */
function schemePort(scheme: string): number | undefined {
  const probe = {
    stateBackend: { url: `${scheme}://probe.example` },
    config: {},
    networkPolicy: { egressPorts: [] },
  } as unknown as ServerInstallOptions;
  const added = egressPorts(probe).filter((port) => !(BASE_EGRESS_PORTS as readonly number[]).includes(port));
  if (added.length > 1) throw new Error(`a ${scheme}:// URL opens ${added.length} ports, not one`);
  return added[0];
}

/**
 * The NetworkPolicy's egress ports (serverNetworkPolicy.ts's egressPorts): the ones it always
 * opens, each URL's own port or its scheme's, and networkPolicy.egressPorts, once each, in order
 * (Helm sorts text only: the ports are zero-padded to sort, then read back).
 */
function egressPortsDefinition(): string {
  const schemes = DIALED_SCHEMES.flatMap((scheme) => {
    const port = schemePort(scheme);
    return port === undefined ? [] : [`${JSON.stringify(scheme)} ${port}`];
  });
  return `{{- /* The NetworkPolicy's egress ports, as serverNetworkPolicy.ts's egressPorts() makes them: those it always opens, each URL's own port or its scheme's, and networkPolicy.egressPorts. */ -}}
{{- define "${EGRESS_PORTS_TEMPLATE}" -}}
{{- $schemePorts := dict ${schemes.join(" ")} -}}
{{- $ports := list ${BASE_EGRESS_PORTS.join(" ")} -}}
{{- $urls := list .Values.stateBackend.url (dig "signIn" "issuer" "" .Values.config) (dig "snapshots" "s3" "url" "" .Values.config) -}}
{{- range $url := $urls -}}
{{- if $url -}}
{{- $parsed := urlParse $url -}}
{{- $port := regexFind ":[0-9]+$" $parsed.host | trimPrefix ":" -}}
{{- if $port -}}
{{- $ports = append $ports (atoi $port) -}}
{{- else if hasKey $schemePorts $parsed.scheme -}}
{{- $ports = append $ports (get $schemePorts $parsed.scheme) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range .Values.networkPolicy.egressPorts -}}
{{- $ports = append $ports (int .) -}}
{{- end -}}
{{- $padded := list -}}
{{- range $port := uniq $ports -}}
{{- $padded = append $padded (printf "%05d" $port) -}}
{{- end -}}
{{- $rules := list -}}
{{- range $port := sortAlpha $padded -}}
{{- $rules = append $rules (dict "protocol" "TCP" "port" (atoi $port)) -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}`;
}

/** The computed fields. */
export const COMPUTED_FIELDS: readonly ComputedField[] = [
  {
    value: (options) => egressPorts(options).map((port) => ({ protocol: "TCP", port })),
    template: EGRESS_PORTS_TEMPLATE,
    get definition() {
      return egressPortsDefinition();
    },
  },
];
