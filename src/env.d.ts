/** The build's id, replaced by the build-manifest plugin (build/buildManifest.ts) at build time. */
declare const __BUILD_ID__: string;
