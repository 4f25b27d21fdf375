/** The build's id, replaced by the build-manifest plugin (build/buildManifest.ts) at build time. */
declare const __BUILD_ID__: string;

/** Each route page's chunk URL by file name (build/pageChunks.ts), for a retry the module map has not seen. */
declare module 'virtual:page-chunks' {
  const urls: Readonly<Record<string, string | undefined>>;
  export default urls;
}
