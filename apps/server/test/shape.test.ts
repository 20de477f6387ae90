/**
 * The capability-slice shape (docs/adr/0006-capability-slices.md), checked over the source tree:
 * API paths are written only in the contract, the web never casts an API answer, and neither app has an
 * import cycle (type imports included).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contract from '@kadr/contract';
import type { RouteSpec } from '@kadr/contract/route';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|mts)$/.test(entry.name)) out.push(full);
  }
  return out;
}

const rel = (file: string) => path.relative(root, file);
const serverSrc = path.join(root, 'apps/server/src');
const webSrc = path.join(root, 'apps/web/src');

function isRoute(value: unknown): value is RouteSpec {
  return (
    typeof value === 'object' &&
    value !== null &&
    'method' in value &&
    'path' in value &&
    'access' in value &&
    'response' in value
  );
}

/** Every route object the contract exports, from its `<capability>Routes` groups. */
function allRoutes(): RouteSpec[] {
  const routes: RouteSpec[] = [];
  for (const [name, value] of Object.entries(contract)) {
    if (!name.endsWith('Routes') || typeof value !== 'object' || value === null) continue;
    for (const route of Object.values(value)) if (isRoute(route)) routes.push(route);
  }
  return routes;
}

/** A route path as a pattern over string literals: `:id` matches `${…}` or any segment text. */
function pathPattern(routePath: string): RegExp {
  const body = routePath
    .split('/')
    .map((segment) =>
      segment.startsWith(':')
        ? '(?:\\$\\{[^}]*\\}|[^/\'"`]+)'
        : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^(?:/api/v1)?${body}(?:\\?.*)?$`);
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = /(?:^|[^\w$])(?:return|typeof|case|in|of|void|delete|throw|new|yield|await|else|do)$/;

/**
 * String and template literals of a source file, comments skipped. A template keeps its `${…}` as written
 * (the route patterns match them); the literals inside those expressions are listed as well, so a template
 * nested in another one, a regular expression or a quote in a comment does not put the scan out of step.
 */
function literals(source: string): string[] {
  const out: string[] = [];
  let i = 0;
  const code = (insideTemplate: boolean): void => {
    let depth = 0;
    let last = '';
    while (i < source.length) {
      const c = source[i] as string;
      const next = source[i + 1];
      if (c === '/' && next === '/') {
        const end = source.indexOf('\n', i);
        i = end < 0 ? source.length : end;
      } else if (c === '/' && next === '*') {
        const end = source.indexOf('*/', i + 2);
        i = end < 0 ? source.length : end + 2;
      } else if (c === "'" || c === '"') {
        const start = i + 1;
        i = start;
        while (i < source.length && source[i] !== c && source[i] !== '\n') i += source[i] === '\\' ? 2 : 1;
        out.push(source.slice(start, i));
        i += 1;
        last = 'a';
      } else if (c === '`') {
        i += 1;
        template();
        last = 'a';
      } else if (
        c === '/' &&
        (last === '' ||
          /[(,=:[!&|?{};+\-*%<>~^]/.test(last) ||
          BEFORE_REGEX.test(source.slice(Math.max(0, i - 10), i).trimEnd()))
      ) {
        let inClass = false;
        i += 1;
        while (i < source.length && source[i] !== '\n' && (inClass || source[i] !== '/')) {
          if (source[i] === '\\') i += 1;
          else if (source[i] === '[') inClass = true;
          else if (source[i] === ']') inClass = false;
          i += 1;
        }
        i += 1;
        last = 'a';
      } else {
        if (c === '{') depth += 1;
        if (c === '}') {
          if (depth === 0 && insideTemplate) return;
          depth -= 1;
        }
        if (!/\s/.test(c)) last = c;
        i += 1;
      }
    }
  };
  const template = (): void => {
    const start = i;
    while (i < source.length && source[i] !== '`') {
      if (source[i] === '\\') i += 2;
      else if (source[i] === '$' && source[i + 1] === '{') {
        i += 2;
        code(true);
        i += 1;
      } else i += 1;
    }
    out.push(source.slice(start, i));
    i += 1;
  };
  code(false);
  return out;
}

describe('API paths are written only in the contract', () => {
  const patterns = allRoutes().map((route) => ({ route, pattern: pathPattern(route.path) }));

  it('knows the routes it checks against', () => {
    expect(patterns.length).toBeGreaterThan(40);
  });

  it('the server registers no path of its own (everything through registerRoutes)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(serverSrc)) {
      for (const literal of literals(fs.readFileSync(file, 'utf8'))) {
        const hit = patterns.find(({ pattern }) => pattern.test(literal));
        if (hit) offenders.push(`${rel(file)}: '${literal}' (${hit.route.method} ${hit.route.path})`);
        else if (literal.startsWith('/api/v1/')) offenders.push(`${rel(file)}: '${literal}'`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the web builds no API URL by hand (everything through api.call and the endpoint views)', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(webSrc)) {
      if (file.endsWith('.test.ts') || file.endsWith('.test.tsx')) continue;
      const source = fs.readFileSync(file, 'utf8');
      if (file.endsWith(path.join('shared', 'api', 'client.ts'))) continue;
      // The inline boot script runs before the API client has loaded; its URLs come from first-requests.ts,
      // which builds them from the contract's endpoint views (and is scanned like every other file).
      if (file.endsWith(path.join('app', 'boot', 'boot-script.ts'))) continue;
      for (const literal of literals(source)) {
        if (/^(?:https?:\/\/[^/]*)?\/api\//.test(literal) || literal.includes('${API_PREFIX}'))
          offenders.push(`${rel(file)}: '${literal}'`);
      }
      if (/\bAPI_PREFIX\b/.test(source)) offenders.push(`${rel(file)}: uses API_PREFIX`);
      if (/\bnew XMLHttpRequest\b/.test(source)) offenders.push(`${rel(file)}: XMLHttpRequest`);
      if (/(^|[^.\w])fetch\(/m.test(source)) offenders.push(`${rel(file)}: fetch()`);
    }
    expect(offenders).toEqual([]);
  });

  it('the scan would catch one', () => {
    const [feed] = patterns.filter(({ route }) => route.path === '/media/feed');
    expect(feed?.pattern.test('/media/feed')).toBe(true);
    const [post] = patterns.filter(({ route }) => route.path === '/media/post/:id' && route.method === 'GET');
    expect(post?.pattern.test('/media/post/${id}')).toBe(true);
    expect(literals("api.get(`/media/post/${id}`) // '/x'")).toEqual(['/media/post/${id}']);
  });
});

/** Every capability's route module, those only exported from `@kadr/contract/<capability>/routes` too. */
const contractSrc = path.join(root, 'packages/contract/src');
const routeModules: Record<string, unknown>[] = await Promise.all(
  fs
    .readdirSync(contractSrc)
    .filter((dir) => fs.existsSync(path.join(contractSrc, dir, 'routes.ts')))
    .map((dir) => import(path.join(contractSrc, dir, 'routes.ts'))),
);

/** Server tests and browser flows build request URLs with the contract's `apiUrl(route, params, query)`. */
describe('server tests and e2e address routes through apiUrl, not literal paths', () => {
  const everyRoute = routeModules.flatMap((exports) =>
    Object.entries(exports)
      .filter(([name]) => name.endsWith('Routes'))
      .flatMap(([, group]) => Object.values(group as Record<string, unknown>).filter(isRoute)),
  );
  const patterns = everyRoute.map((route) => pathPattern(route.path));
  const testFiles = [
    ...sourceFiles(path.join(root, 'apps/server/test')),
    ...sourceFiles(path.join(root, 'e2e')),
  ].filter((file) => !file.endsWith(path.join('test', 'shape.test.ts')));
  const serverTests = path.join(root, 'apps/server/test');
  /**
   * Literals that are an API path: any mention of the prefix; in the server's tests also a route's path
   * written out (in the browser flows the same words are the app's page URLs, `/settings`, `/media/post/1`).
   */
  const handWritten = (file: string) =>
    literals(fs.readFileSync(file, 'utf8')).filter(
      (literal) =>
        literal.includes('/api/v1') ||
        (file.startsWith(serverTests) && patterns.some((pattern) => pattern.test(literal))),
    );

  it('no literal API path in any of them', () => {
    const offenders = testFiles.flatMap((file) =>
      handWritten(file).map((literal) => `${rel(file)}: '${literal}'`),
    );
    expect(offenders).toEqual([]);
  });

  it('the scan would catch one', () => {
    expect(literals("app.inject({ url: '/api/v1/auth/me' })").some((l) => l.includes('/api/v1'))).toBe(true);
    // Neither a nested template, a regular expression with a quote nor a quote in a comment hides one.
    const tricky =
      "`${xs.map((x) => `${x}:`).join()}`; /['`]/.test(s); // it's\ncall('/api/v1/x', `/groups/${id}/members`);";
    expect(literals(tricky)).toEqual(expect.arrayContaining(['/api/v1/x', '/groups/${id}/members']));
    expect(everyRoute.length).toBeGreaterThan(100);
    expect(patterns.some((pattern) => pattern.test('/groups/${g.id}/members'))).toBe(true);
  });
});

describe('the web never casts an API answer', () => {
  /** The names of every schema a route answers with (the types a cast would claim). */
  const answerTypes = new Set<string>();
  const schemas = new Set(allRoutes().flatMap((route) => Object.values(route.response)));
  for (const [name, value] of Object.entries(contract)) if (schemas.has(value)) answerTypes.add(name);

  it('knows the answer types', () => {
    expect([...answerTypes]).toEqual(expect.arrayContaining(['PostResponse', 'Profile', 'ChatsResponse']));
  });

  it('has no `as <Answer>`, no `api.x<T>` type arguments, no cast right after api.call', () => {
    const names = [...answerTypes].join('|');
    const cast = new RegExp(`\\bas\\s+(?:${names})\\b|\\bapi\\.\\w+<`);
    const callCast = /api\.call\([^;]*?\)\s*as\s/s;
    const offenders: string[] = [];
    for (const file of sourceFiles(webSrc)) {
      const source = fs.readFileSync(file, 'utf8');
      source.split('\n').forEach((line, i) => {
        if (cast.test(line)) offenders.push(`${rel(file)}:${i + 1}: ${line.trim()}`);
      });
      if (callCast.test(source)) offenders.push(`${rel(file)}: a cast of api.call's answer`);
    }
    expect(offenders).toEqual([]);
  });
});

/** Relative imports of a file, type-only ones included (import, export … from, import()). */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1] ?? '');
  const out: string[] = [];
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), specifier);
    const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
    const found = candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
    if (found && /\.(ts|tsx)$/.test(found)) out.push(found);
  }
  return out;
}

/** Strongly connected components with more than one file (or a file importing itself): the cycles. */
function cycles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.map(rel).sort());
    }
  };
  for (const file of files) if (!indices.has(file)) visit(file);
  return found;
}

describe('no import cycles (type imports included)', () => {
  it('apps/server/src has none', () => {
    expect(cycles(sourceFiles(serverSrc))).toEqual([]);
  });

  it('apps/web/src has none', () => {
    expect(cycles(sourceFiles(webSrc))).toEqual([]);
  });

  it('the scanner finds one', () => {
    const dir = fs.mkdtempSync(path.join(root, 'node_modules/.cycle-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "import type { B } from './b.ts';\nexport type A = B;\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import type { A } from './a.ts';\nexport type B = A[];\n");
      expect(cycles(sourceFiles(dir))).toHaveLength(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
