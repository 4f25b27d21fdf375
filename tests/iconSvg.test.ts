import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, iconToSVG } from '@iconify/utils';
import { describe, expect, it } from 'vitest';
import { parseIconBody, type SvgNode } from '../src/platform/iconSvg';

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
