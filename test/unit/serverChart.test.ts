/**
 * The Helm chart's generator (scripts/generators/serverChart*.ts), without Helm: where each value's
 * expression lands in the templates, what an optional value's `if` and `else` hold, that the
 * generator stops at a render it cannot template, and that values.schema.json takes values.yaml
 * with the required values and refuses it without them. The chart's freshness is
 * generatedFiles.test.ts's; Helm renders it in test/e2e/serverChart.test.ts.
 */
import Ajv from "ajv";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { serverInstallation } from "../../provider/serverInstall/serverInstallation";
import { parseServerInstall } from "../../provider/serverInstall/serverInstallOptions";
import { SERVER_CHART_DIR, serverChartFiles } from "../../scripts/generators/serverChart";
import { chartTemplates, type Render } from "../../scripts/generators/serverChartTemplates";
import { placeholderInstall } from "../../scripts/generators/serverDeployFile";

const root = path.resolve(__dirname, "../..");
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
const files = new Map(
  serverChartFiles(version).map((file) => [file.path.slice(SERVER_CHART_DIR.length + 1), file.content]),
);
const fileOf = (name: string) => files.get(name) ?? "";

describe("the chart's templates", () => {
  it("read each value where the component's render has it", () => {
    const deployment = fileOf("templates/deployment.yaml");
    expect(deployment).toContain("\n  replicas: {{ .Values.replicas | int }}\n");
    // The init container and the server: one value, both places.
    expect(deployment.match(/ image: \{\{ \.Values\.image \| quote \}\}\n/g)).toHaveLength(2);
    expect(deployment).toContain("\n            - {{ .Values.stateBackend.url | quote }}\n");
    expect(deployment).toContain(
      "\n      serviceAccountName: {{ .Values.installation.server.serviceAccount | quote }}\n",
    );
    expect(fileOf("templates/service.yaml")).toContain("\n  namespace: {{ .Release.Namespace | quote }}\n");
  });

  it("write the configuration file as the component does, with the values in, and roll the pods on its digest", () => {
    const helpers = fileOf("templates/_helpers.tpl");
    expect(helpers).toContain('\n  issuer: {{ include "kubespaces-server.yamlString" .Values.config.signIn.issuer }}');
    expect(helpers).toContain("\n  listen: 0.0.0.0:{{ .Values.port | int }}\n");
    // The platform's other fields, after the ones it must give, where the component writes them.
    expect(helpers).toContain('{{- with omit .Values.config "signIn" "http" }}{{ toYaml . | nindent 0 }}{{- end }}');
    expect(fileOf("templates/config.yaml")).toContain(
      '\n  server.yaml: |\n    {{- include "kubespaces-server.config" . | nindent 4 }}\n',
    );
    expect(fileOf("templates/deployment.yaml")).toContain(
      'kubespaces.io/config-sha256: {{ include "kubespaces-server.config" . | sha256sum | quote }}\n',
    );
  });

  it("leave out what an optional value makes, and hold a default's place with the component's", () => {
    const route = fileOf("templates/route.yaml");
    expect(route).toMatch(/^# .*\n\{\{- if \.Values\.route \}\}\napiVersion: gateway\.networking\.k8s\.io\/v1\n/);
    expect(route.endsWith("{{- end }}\n")).toBe(true);
    expect(route).toContain(
      "      {{- if .Values.route.gateway.sectionName }}\n      sectionName: {{ .Values.route.gateway.sectionName | quote }}\n      {{- end }}\n",
    );
    const resources =
      /\n {10}resources:\n {12}\{\{- if hasKey \.Values "resources" \}\}\n {12}\{\{- toYaml \.Values\.resources \| nindent 12 \}\}\n {12}\{\{- else \}\}\n((?: {12}.*\n)+?) {12}\{\{- end \}\}\n/.exec(
        fileOf("templates/deployment.yaml"),
      );
    expect(resources).not.toBeNull();
    const { options } = parseServerInstall(placeholderInstall(version)) as { options: { resources: unknown } };
    expect(parse(resources![1])).toEqual(options.resources);
    const policy = fileOf("templates/network-policy.yaml");
    expect(policy).toMatch(/^# .*\n\{\{- if \.Values\.networkPolicy\.enabled \}\}\n/);
    // Computed by the component from the URLs: a template of its own.
    expect(policy).toContain('\n    - ports:\n        {{- include "kubespaces-server.egressPorts" . | nindent 8 }}\n');
  });

  it("stop at a render that holds a value computed from one, or a value where no expression can read it", () => {
    const component: Render = (input) => serverInstallation(input).objects;
    const withNote =
      (data: (image: string) => Record<string, string>): Render =>
      (input) => [
        ...component(input),
        {
          role: "note",
          object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "note" }, data: data(input.image) },
        },
      ];
    expect(() =>
      chartTemplates(
        "test",
        withNote((image) => ({ image: image.toUpperCase() })),
      ),
    ).toThrow(/differ between the two sets of sentinels, in templates\/note\.yaml/);
    expect(() =>
      chartTemplates(
        "test",
        withNote((image) => ({ [image]: "x" })),
      ),
    ).toThrow(/sentinel in the key note\.data\.sentinel-image-a/);
    // A computed field (the NetworkPolicy's egress ports) is found by its value, or the generator stops.
    const withoutPolicy: Render = (input) => component(input).filter(({ object }) => object.kind !== "NetworkPolicy");
    expect(() => chartTemplates("test", withoutPolicy)).toThrow(/kubespaces-server\.egressPorts writes in 0 places/);
  });
});

describe("the chart's values.schema.json", () => {
  const validate = new Ajv({ strict: false, allErrors: true, logger: false }).compile(
    JSON.parse(fileOf("values.schema.json")),
  );
  // Read in each test, so that a values.yaml that is no YAML fails them rather than the file's collection.
  const valuesYaml = () => parse(fileOf("values.yaml")) as Record<string, any>;
  const { image, stateBackend, config } = placeholderInstall(version);
  const required = { image, stateBackend: { url: stateBackend.url }, config };

  it("takes values.yaml with the values a platform must set", () => {
    const defaults = valuesYaml();
    const values = { ...defaults, ...required, stateBackend: { ...defaults.stateBackend, ...required.stateBackend } };
    expect(validate(values), JSON.stringify(validate.errors)).toBe(true);
  });

  it("refuses values.yaml alone, naming each required value", () => {
    expect(validate(valuesYaml())).toBe(false);
    expect(validate.errors!.map((error) => `${error.instancePath} ${error.params.missingProperty}`).sort()).toEqual([
      " image",
      "/config/http publicUrl",
      "/config/signIn issuer",
      "/stateBackend url",
    ]);
  });
});
