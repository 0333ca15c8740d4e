/**
 * A dynamic provider whose every method loads the real one from a package module at run time.
 * Its serialized form is a few lines naming the module, instead of the component's whole module
 * graph (which cannot always be serialized, and would be stored in every resource's state).
 */
import type * as pulumi from "@pulumi/pulumi";

/** Module the engine's dynamic-provider process loads, resolved from the program's directory. */
export const DYNAMIC_PROVIDERS_MODULE = "@kubespaces/pulumi/dynamic-providers";

/**
 * A provider that forwards to export `exportName` of DYNAMIC_PROVIDERS_MODULE. Methods the target
 * lacks behave as the dynamic provider host would without them: inputs pass check unchanged, read
 * keeps the state, delete does nothing.
 */
export function forwardingProvider(
  exportName: "readinessProvider" | "cleanupProvider" | "hostCheckProvider" | "accessCheckProvider",
): pulumi.dynamic.ResourceProvider {
  const moduleName = DYNAMIC_PROVIDERS_MODULE;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const target = (): pulumi.dynamic.ResourceProvider => require(moduleName)[exportName];
  return {
    check: async (olds, news) => (target().check ? target().check!(olds, news) : { inputs: news }),
    diff: async (id, olds, news) => (target().diff ? target().diff!(id, olds, news) : {}),
    create: (inputs) => target().create(inputs),
    read: async (id, props) => (target().read ? target().read!(id, props) : { id, props }),
    update: async (id, olds, news) => (target().update ? target().update!(id, olds, news) : { outs: news }),
    delete: async (id, props) => {
      await target().delete?.(id, props);
    },
  };
}
