/**
 * The colour mode's pieces beyond tests/machines/colorMode/colorMode.machine.test.ts: the style that src/platform/colorMode.ts
 * inserts for the one frame of a switch, so that the whole page changes at once instead of fading element by
 * element. (Read as text: the server hashes the same text for the Content-Security-Policy.)
 */
import { describe, expect, it } from 'vitest';
import { TRANSITION_FREEZE_CSS } from '../../core/colorModeFreeze';

/** One rule's selectors and declarations, from CSS text made of exactly one rule. */
function ruleOf(css: string) {
  const match = /^([^{}]+)\{([^{}]*)\}$/.exec(css);
  if (!match) throw new Error(`Not a single CSS rule: ${JSON.stringify(css)}`);
  const [, selectors = '', body = ''] = match;
  return {
    selectors: selectors.split(',').map((selector) => selector.trim()),
    declarations: body
      .split(';')
      .map((declaration) => declaration.trim())
      .filter((declaration) => declaration !== ''),
  };
}

describe('colour-mode switch: the transition freeze', () => {
  it('is one rule that reaches every element and both of its generated boxes', () => {
    expect(ruleOf(TRANSITION_FREEZE_CSS).selectors).toEqual(['*', '*::before', '*::after']);
  });

  it('turns transitions off, prefixed and not, over any transition the page declares', () => {
    expect(ruleOf(TRANSITION_FREEZE_CSS).declarations).toEqual([
      '-webkit-transition:none!important',
      'transition:none!important',
    ]);
  });
});
