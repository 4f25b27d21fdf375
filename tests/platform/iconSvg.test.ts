import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import { describe, expect, it } from 'vitest';
import { parseIconBody, type SvgNode } from '../../src/platform/iconSvg';

const lucide = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@iconify-json/lucide/icons.json'), 'utf8'),
) as IconifyJSON;

function* walk(nodes: readonly (SvgNode | string)[]): Generator<SvgNode> {
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    yield node;
    yield* walk(node.children);
  }
}

describe('icon bodies as allow-listed trees', () => {
  it('reads every lucide icon whole: each element and attribute kept', () => {
    const names = Object.keys(lucide.icons);
    expect(names.length).toBeGreaterThan(1000);
    for (const name of names) {
      const data = getIconData(lucide, name);
      if (!data) throw new Error(name);
      const { body } = iconToSVG(data);
      const nodes = parseIconBody(body);
      expect(nodes, name).not.toBeNull();
      const elements = [...walk(nodes ?? [])];
      expect(elements.length, name).toBe(body.match(/<[a-zA-Z]/g)?.length ?? 0);
      const attributes = elements.reduce((sum, element) => sum + Object.keys(element.props).length, 0);
      expect(attributes, name).toBe(body.match(/\s[-a-zA-Z:]+="/g)?.length ?? 0);
    }
  });

  it('maps attributes to React props and decodes XML entities', () => {
    expect(
      parseIconBody('<g fill="none" stroke-width="2"><path d="M0 0h24" stroke-linecap="round"/></g>'),
    ).toEqual([
      {
        tag: 'g',
        props: { fill: 'none', strokeWidth: '2' },
        children: [{ tag: 'path', props: { d: 'M0 0h24', strokeLinecap: 'round' }, children: [] }],
      },
    ]);
    expect(parseIconBody('<title>A &amp; B &#65;</title>')).toEqual([
      { tag: 'title', props: {}, children: ['A & B A'] },
    ]);
  });

  it('keeps references inside the icon and drops any that leave it', () => {
    const [use, rect] = parseIconBody(
      '<use href="#a" xlink:href="https://evil.example/x.svg#a"/><rect fill="url(#g)" mask="url(https://evil.example/m)"/>',
    ) as SvgNode[];
    expect(use?.props).toEqual({ href: '#a' });
    expect(rect?.props).toEqual({ fill: 'url(#g)' });
  });

  // Each of these got past the old blocklist, or would render something that is not an icon.
  it.each([
    ['<image/onerror="alert(1)" href="x"/>', 'a slash instead of a space before the handler'],
    ['<path d="M0" onload=alert(1) />', 'an unquoted handler'],
    ['<path d="M0"/><!-- --><script>alert(1)</script>', 'a comment'],
    ['<![CDATA[<script>alert(1)</script>]]>', 'CDATA'],
    ['<path d="M0">', 'an unclosed element'],
    ['<g></path>', 'unbalanced tags'],
    ['<path d="&nbsp;"/>', 'an HTML-only entity'],
    ['<path d="<script>"/>', 'markup inside a value'],
    ['x <', 'a stray angle bracket'],
  ])('refuses %j (%s)', (body) => expect(parseIconBody(body)).toBeNull());

  it.each([
    '<path d="M0" onload="alert(1)" onclick="alert(2)" style="x" class="y"/>',
    '<script>alert(1)</script><path d="M0"/>',
    '<foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject><path d="M0"/>',
    '<a href="jav&#x61;script:alert(1)"><path d="M0"/></a><path d="M0"/>',
    '<image href="x"/><path d="M0"/>',
    '<set attributeName="onmouseover" to="alert(1)"/><path d="M0"/>',
    '<animate attributeName="href" values="javascript:alert(1)"/><path d="M0"/>',
  ])('renders only the allow-listed part of %j', (body) => {
    const nodes = parseIconBody(body);
    if (nodes === null) throw new Error('expected a tree');
    const elements = [...walk(nodes)];
    expect(elements.filter((element) => element.tag === 'path')).toHaveLength(1);
    for (const element of elements) {
      expect(['path', 'set', 'animate']).toContain(element.tag);
      expect(Object.keys(element.props).filter((prop) => /^on|^style$|^className$|href/i.test(prop))).toEqual(
        [],
      );
      expect(element.props.attributeName).toBeUndefined();
    }
  });
});

describe('attribute values', () => {
  const propsOf = (body: string) => (parseIconBody(body) as SvgNode[])[0]?.props;

  it('reads single-quoted values as double-quoted ones', () => {
    expect(propsOf(`<path d='M0 0h24' fill="none"/>`)).toEqual({ d: 'M0 0h24', fill: 'none' });
  });

  it('keeps a link only when it points inside the icon', () => {
    expect(propsOf('<use href="#a"/>')).toEqual({ href: '#a' });
    expect(propsOf('<use xlink:href="#b"/>')).toEqual({ xlinkHref: '#b' });
    expect(propsOf('<use href="a#b"/>')).toEqual({});
    expect(propsOf('<use href="javascript:x#"/>')).toEqual({});
  });

  it('lets an animation name only an allowed attribute that is not a link', () => {
    expect(propsOf('<animate attributeName="fill-opacity"/>')).toEqual({ attributeName: 'fill-opacity' });
    for (const name of ['href', 'xlink:href', 'onclick', 'style', 'constructor', 'toString']) {
      expect(propsOf(`<animate attributeName="${name}"/>`), name).toEqual({});
    }
  });

  it('keeps paint that is exactly one url(#id), with any spacing and case', () => {
    for (const value of ['url(#g)', ' url( #g ) ', 'URL(#g)', 'url(#)', 'url(\n#g)']) {
      expect(propsOf(`<rect fill="${value}"/>`), value).toEqual({ fill: value });
    }
  });

  it('drops a value that reaches outside the icon, alone or beside an inside reference', () => {
    for (const value of [
      'url(https://evil.example/p)',
      'URL(https://evil.example/p)',
      'url (https://evil.example/p)',
      'url(#g) url(https://evil.example/p)',
      'url(https://evil.example/p) url(#g)',
      'red url(#g)',
      'url(#g) red',
      'url(#g',
    ]) {
      expect(propsOf(`<rect fill="${value}"/>`), value).toEqual({});
    }
  });

  it('keeps `type` for animateTransform only', () => {
    expect(propsOf('<animateTransform type="rotate"/>')).toEqual({ type: 'rotate' });
    expect(propsOf('<path type="x" d="M0"/>')).toEqual({ d: 'M0' });
  });
});

describe('character references', () => {
  const titleOf = (text: string) => {
    const nodes = parseIconBody(`<title>${text}</title>`);
    return nodes === null ? null : nodes[0]?.children[0];
  };

  it('reads decimal and hexadecimal references, in either case', () => {
    expect(titleOf('&#97;&#x4A;&#X4a;&#x10FFFF;')).toBe('aJJ\u{10ffff}');
  });

  it('reads the five XML entities', () => {
    expect(titleOf('&lt;&gt;&amp;&quot;&apos;')).toBe(`<>&"'`);
  });

  it('refuses the body for a reference to no character, past Unicode, or an unknown or bare entity', () => {
    for (const text of ['&#0;', '&#x110000;', '&#99999999;', '&LT;', '&nbsp;', 'a & b', '&#;', '&#x;']) {
      expect(titleOf(text), text).toBeNull();
    }
  });

  it('refuses the body for a name every object inherits (not one of the table’s own)', () => {
    for (const text of ['&constructor;', '&toString;', '&valueOf;', '&hasOwnProperty;']) {
      expect(titleOf(text), text).toBeNull();
    }
  });

  it('decodes attribute values too', () => {
    expect(parseIconBody('<path d="M0&#32;0"/>')).toEqual([
      { tag: 'path', props: { d: 'M0 0' }, children: [] },
    ]);
    expect(parseIconBody('<path d="M0&bogus;0"/>')).toBeNull();
  });
});

describe('structure', () => {
  it('reads an empty body as an icon of nothing', () => {
    expect(parseIconBody('')).toEqual([]);
  });

  it('keeps text in title and desc only, and never whitespace alone', () => {
    expect(parseIconBody('<desc>Made by hand</desc>')).toEqual([
      { tag: 'desc', props: {}, children: ['Made by hand'] },
    ]);
    expect(parseIconBody('<title>  </title>')).toEqual([{ tag: 'title', props: {}, children: [] }]);
    expect(parseIconBody('<g>loose text<path d="M0"/></g>\n')).toEqual([
      { tag: 'g', props: {}, children: [{ tag: 'path', props: { d: 'M0' }, children: [] }] },
    ]);
  });

  it('leaves out an allowed element inside a disallowed one, and keeps its siblings in order', () => {
    expect(
      parseIconBody('<path d="1"/><switch><g><path d="2"/></g></switch><circle r="3"></circle>'),
    ).toEqual([
      { tag: 'path', props: { d: '1' }, children: [] },
      { tag: 'circle', props: { r: '3' }, children: [] },
    ]);
  });

  it('refuses a closing tag with nothing open, or one that closes another element', () => {
    expect(parseIconBody('</g>')).toBeNull();
    expect(parseIconBody('<path d="M0"/></g>')).toBeNull();
    expect(parseIconBody('<g><defs></g></defs>')).toBeNull();
  });

  it('allows whitespace inside tags where XML does', () => {
    expect(parseIconBody('<g\n  fill = "none" ><path d="M0" /></g >')).toEqual([
      { tag: 'g', props: { fill: 'none' }, children: [{ tag: 'path', props: { d: 'M0' }, children: [] }] },
    ]);
  });
});
