// ESLint for the package, its tests and scripts: typescript-eslint's recommended rules (syntax
// only, so a lint run needs no type-check and stays fast). Generated and vendored trees are left out.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["bin/", "dist/", "sdk/", "node_modules/", "third_party/", ".testbed/", "provider/generated/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // Unused arguments named with a leading underscore keep an interface's shape.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    // Plain CommonJS programs (a Pulumi program the engine loads by `require`).
    files: ["**/*.js"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // The portal's script runs in the browser, as a module.
    files: ["provider/server/portal/static/*.js"],
    languageOptions: { sourceType: "module", globals: globals.browser },
  },
  {
    // Tests read into rendered manifests, mock registrations and exported state: untyped JSON.
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
