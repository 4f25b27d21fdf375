// @vitest-environment node
/** The toaster's pure helpers at their edges: equal axes, exact thresholds, blank labels, bad options. */
import { describe, expect, it } from 'vitest';
import {
  actionLabelOf,
  announcementOf,
  assertToasterLabel,
  assertToastOptions,
  assertToastType,
  contentOf,
  hotkeyLabel,
  isDeltaInDirection,
  movedBeyond,
  patchContent,
} from '../../../machines/toast/toaster.utils';

describe('swipe geometry', () => {
  it('counts a delta only past the threshold, along the direction axis', () => {
    expect(isDeltaInDirection({ x: 51, y: 0 }, 'right', 50)).toBe(true);
    expect(isDeltaInDirection({ x: 50, y: 0 }, 'right', 50)).toBe(false);
    expect(isDeltaInDirection({ x: 0, y: 51 }, 'down', 50)).toBe(true);
    expect(isDeltaInDirection({ x: 0, y: 50 }, 'down', 50)).toBe(false);
    expect(isDeltaInDirection({ x: 0, y: -51 }, 'up', 50)).toBe(true);
    expect(isDeltaInDirection({ x: -51, y: 0 }, 'left', 50)).toBe(true);
  });

  it('gives a diagonal delta to the axis it leans to; an exact diagonal is vertical', () => {
    expect(isDeltaInDirection({ x: 60, y: 70 }, 'right', 50)).toBe(false);
    expect(isDeltaInDirection({ x: 70, y: 60 }, 'down', 50)).toBe(false);
    expect(isDeltaInDirection({ x: 60, y: 60 }, 'right', 50)).toBe(false);
    expect(isDeltaInDirection({ x: 60, y: 60 }, 'down', 50)).toBe(true);
  });

  it('starts a swipe only once the drag is farther than the start distance, either way', () => {
    const start = { x: 100, y: 100 };
    expect(movedBeyond(start, { x: 110, y: 100 }, 10)).toBe(false);
    expect(movedBeyond(start, { x: 111, y: 100 }, 10)).toBe(true);
    expect(movedBeyond(start, { x: 100, y: 110 }, 10)).toBe(false);
    expect(movedBeyond(start, { x: 100, y: 89 }, 10)).toBe(true);
  });
});

describe('options from unchecked callers', () => {
  it('accepts the two types and no type, and names the prop otherwise', () => {
    for (const type of [undefined, 'foreground', 'background'])
      expect(() => assertToastType(type)).not.toThrow();
    expect(() => assertToastType('loud')).toThrow(
      'Invalid prop `type` supplied to `Toast`. Expected `foreground | background`.',
    );
  });

  it('wants a toaster label that says something', () => {
    for (const label of [42, '', '   ', undefined]) {
      expect(() => assertToasterLabel(label)).toThrow(
        'Invalid prop `label` supplied to `Toaster`. Expected non-empty `string`.',
      );
    }
  });

  it('wants a duration in milliseconds, and checks the type too', () => {
    expect(() => assertToastOptions({ duration: 3000 })).not.toThrow();
    expect(() => assertToastOptions({})).not.toThrow();
    expect(() => assertToastOptions({ duration: '3000' as unknown as number })).toThrow(
      'Invalid prop `duration` supplied to `Toast`. Expected a number of milliseconds.',
    );
    expect(() => assertToastOptions({ type: 'loud' as unknown as 'foreground' })).toThrow(
      /Invalid prop `type`/,
    );
  });
});

describe('content', () => {
  it('changes only the fields a patch names, also to nothing', () => {
    const content = contentOf({ title: 'Saved', description: 'All good.' });
    expect(patchContent(content, {})).toEqual(content);
    expect(patchContent(content, { description: undefined })).toEqual({ ...content, description: undefined });
    expect(patchContent(content, { title: undefined })).toEqual({ ...content, title: undefined });
    expect(patchContent(content, { type: 'background' })).toMatchObject({
      type: 'background',
      title: 'Saved',
    });
  });

  it('reads hotkeys as people do', () => {
    expect(hotkeyLabel(['altKey', 'Digit1'])).toBe('altKey+1');
    expect(hotkeyLabel(['KeyT'])).toBe('T');
  });

  it('announces only the parts that say something, one space apart', () => {
    expect(announcementOf('Notification', contentOf({ title: 'Saved', description: undefined }))).toBe(
      'Notification Saved',
    );
    expect(announcementOf('Notification', contentOf({ title: '  ', description: 'All good.' }))).toBe(
      'Notification All good.',
    );
  });

  it('labels an action by its own label, or the fallback when it has none worth reading', () => {
    const run = () => {};
    expect(actionLabelOf({ label: 'Undo', onClick: run }, 'Action')).toBe('Undo');
    expect(actionLabelOf({ label: '  ', onClick: run }, 'Action')).toBe('Action');
    expect(actionLabelOf({ onClick: run }, 'Action')).toBe('Action');
  });
});
