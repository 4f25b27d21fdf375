// @vitest-environment node
// build/staticStyles.ts: style calls with literal arguments become the class names Panda's own runtime
// returns for them, at build time; anything else is left to the runtime.
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it, vi } from 'vitest';
import { foldStaticStyles, loadRuntimeFromDisk, staticStyles, staticValue } from '../../build/staticStyles';
import { css } from '../../styled-system/css';
import { grid } from '../../styled-system/patterns';
import { button, toast } from '../../styled-system/recipes';

/** A module in src/ui/, so that `../../styled-system/...` is this project's generated runtime. */
const file = path.resolve('src/ui/Example.tsx');
const fold = async (code: string) => (await foldStaticStyles(code, file, loadRuntimeFromDisk))?.code ?? null;
const cssImport = "import { css } from '../../styled-system/css';\n";

describe('foldStaticStyles', () => {
  it('writes the runtime’s class string in place of a literal css() call and drops the import', async () => {
    const style = { fontSize: 'sm', color: 'fg.muted', _hover: { color: 'fg' }, md: { px: '4' } };
    const code = `${cssImport}export const muted = css(${JSON.stringify(style)});\n`;
    const folded = await fold(code);
    expect(folded).toBe(`\nexport const muted = ${JSON.stringify(css(style))};\n`);
  });

  it('folds recipes and patterns, with and without variants, and slot recipes to an object', async () => {
    const code = [
      "import { button, toast } from '../../styled-system/recipes';",
      "import { grid } from '../../styled-system/patterns';",
      "const a = button(); const b = button({ visual: 'outline', size: 'sm' });",
      "const c = grid({ gap: '4', columns: { base: 1, sm: 3 } });",
      "const d = toast({ placement: 'top-left' });",
    ].join('\n');
    const folded = await fold(code);
    expect(folded).toContain(`const a = ${JSON.stringify(button())};`);
    expect(folded).toContain(`const b = ${JSON.stringify(button({ visual: 'outline', size: 'sm' }))};`);
    expect(folded).toContain(`const c = ${JSON.stringify(grid({ gap: '4', columns: { base: 1, sm: 3 } }))};`);
    expect(folded).toContain(`const d = ${JSON.stringify(toast({ placement: 'top-left' }))};`);
    expect(folded).not.toMatch(/import/);
  });

  it('leaves a call with a non-literal argument to the runtime, and keeps the import for it', async () => {
    const code = `${cssImport}const a = css({ p: '2' });\nexport const b = (color) => css({ color });\n`;
    const folded = await fold(code);
    expect(folded).toContain(`const a = ${JSON.stringify(css({ p: '2' }))};`);
    expect(folded).toContain('export const b = (color) => css({ color });');
    expect(folded).toContain(cssImport.trim());
  });

  it('keeps the specifiers still referred to and removes only the folded ones', async () => {
    const code =
      "import { css, cx } from '../../styled-system/css';\nexport const f = (x) => cx(css({ p: '1' }), x);\n";
    const folded = await fold(code);
    expect(folded).toBe(
      `import { cx } from '../../styled-system/css';\nexport const f = (x) => cx(${JSON.stringify(css({ p: '1' }))}, x);\n`,
    );
  });

  it('does not take a property name or member name for a use of the import', async () => {
    const code = `${cssImport}const a = css({ p: '1' });\nconst o = { css: 1 };\nconst m = o.css;\n`;
    expect(await fold(code)).not.toContain('import');
  });

  it('leaves alone a name that a local binding may shadow', async () => {
    const withParam = `${cssImport}export const f = (css) => css({ p: '1' });\n`;
    const withVariable = `${cssImport}const css = (x) => x;\nexport const a = css({ p: '1' });\n`;
    expect(await fold(withParam)).toBeNull();
    expect(await fold(withVariable)).toBeNull();
    expect(await fold(`${cssImport}const { css } = styles;\nexport const a = css({ p: '1' });\n`)).toBeNull();
    expect(await fold(`${cssImport}try {} catch (css) { css({ p: '1' }); }\n`)).toBeNull();
  });

  it('changes nothing in a module without styled-system imports, or with a same-named import from elsewhere', async () => {
    expect(await fold("const a = css({ p: '1' });\n")).toBeNull();
    expect(
      await fold("import { css } from 'other-styles';\nconst a = css({ p: '1' }); // styled-system\n"),
    ).toBeNull();
  });

  it('asks the runtime of the module the import names, resolved against the importing file', async () => {
    const loadRuntime = vi.fn(async () => ({ css: () => 'from-stub' }));
    const result = await foldStaticStyles(`${cssImport}const a = css({ p: '1' });\n`, file, loadRuntime);
    expect(loadRuntime).toHaveBeenCalledWith(path.resolve('styled-system/css'));
    expect(result?.code).toBe('\nconst a = "from-stub";\n');
  });

  it('keeps a call whose result is not class names (a function, a number, an object with other values)', async () => {
    for (const value of [() => 'x', 3, { a: 1 }, Object.create({ a: 'x' })]) {
      const loadRuntime = async () => ({ css: () => value });
      expect(
        await foldStaticStyles(`${cssImport}const a = css({ p: '1' });\n`, file, loadRuntime),
      ).toBeNull();
    }
  });

  it('returns a source map of the edit', async () => {
    const result = await foldStaticStyles(
      `${cssImport}const a = css({ p: '1' });\n`,
      file,
      loadRuntimeFromDisk,
    );
    expect(result?.map.sources).toEqual([file]);
    expect(result?.map.mappings).not.toBe('');
  });
});

describe('staticValue', () => {
  const staticOf = (expression: string) => {
    const program = parseAst(`(${expression});`) as unknown as { body: { expression: never }[] };
    const node = program.body[0]?.expression;
    if (!node) throw new Error('no expression');
    return staticValue(node);
  };
  const notStatic = staticOf('x');

  it('reads literals, templates without holes, negative numbers, undefined, arrays and objects', () => {
    expect(
      staticOf(
        `{ a: 'x', 'b-c': 2, ['d']: true, e: null, f: -1, g: \`t\`, h: [1, 'y'], i: { j: undefined } }`,
      ),
    ).toEqual({
      a: 'x',
      'b-c': 2,
      d: true,
      e: null,
      f: -1,
      g: 't',
      h: [1, 'y'],
      i: { j: undefined },
    });
  });

  it('refuses anything computed at run time', () => {
    expect(typeof notStatic).toBe('symbol');
    for (const expression of [
      '{ ...a }',
      '{ [a]: 1 }',
      '{ a }',
      '{ a() {} }',
      '{ get a() { return 1; } }',
      '[...a]',
      '[1, , 2]',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal with a hole.
      '`a${b}`',
      '-a',
      '!1',
      'f()',
      '/re/',
      '1n',
      '{ a: { b: c } }',
    ]) {
      expect(staticOf(expression), expression).toBe(notStatic);
    }
  });
});

describe('staticStyles() Vite plugin', () => {
  const transform = (code: string, id: string) => {
    const hook = staticStyles(loadRuntimeFromDisk).transform as (
      code: string,
      id: string,
    ) => Promise<unknown>;
    return hook(code, id);
  };

  it('runs in builds only, after the other transforms', () => {
    expect(staticStyles()).toMatchObject({ apply: 'build', enforce: 'post' });
  });

  it('declares the generated styled-system modules free of side effects, unchanged', async () => {
    const code = 'const table = new Map();\n';
    expect(await transform(code, path.resolve('styled-system/css/css.mjs'))).toEqual({
      code,
      map: null,
      moduleSideEffects: false,
    });
    expect(await transform('.a { color: red }', path.resolve('styled-system/styles.css'))).toBeNull();
  });

  it('folds the app’s modules but not dependencies or other files', async () => {
    const code = `${cssImport}const a = css({ p: '1' });\n`;
    expect(await transform(code, `${file}?v=1`)).toMatchObject({
      code: `\nconst a = ${JSON.stringify(css({ p: '1' }))};\n`,
    });
    expect(await transform(code, path.resolve('node_modules/x/index.js'))).toBeNull();
    expect(await transform(code, path.resolve('src/styles.css'))).toBeNull();
  });
});
