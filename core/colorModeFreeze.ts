/**
 * The style element the colour-mode switch inserts for one frame so that nothing fades (src/platform/colorMode.ts).
 * Its text is fixed, so the Content-Security-Policy allows it by hash (server/plugins/inlineHashes.ts) instead of
 * allowing inline styles: change it here and the policy follows.
 */
export const TRANSITION_FREEZE_CSS =
  '*,*::before,*::after{-webkit-transition:none!important;transition:none!important}';
