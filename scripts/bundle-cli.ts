/**
 * Bundles the CLI and its dependencies into the one file dist/cli/main.js, over tsc's output for
 * src/cli/main.ts. Unbundled, Node 20 resolves, reads and compiles over 400 modules one by one before
 * `a2a-sim serve` can answer; as one file it gets there with 40% less CPU time.
 * The programmatic API (dist/index.js and its types) stays tsc's output, file by file.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';

/**
 * Imported on first use only (a faker template, a live feed watcher, a shared store, exported traces): left in
 * node_modules for the dynamic import to find, rather than parsed with everything else at startup.
 */
const ON_FIRST_USE = ['@faker-js/faker', '@faker-js/faker/*', 'ws', 'ioredis', '@opentelemetry/*'];

/**
 * config.ts reads the version from `../package.json`, a path that holds for dist/config.js but not
 * for dist/cli/main.js; the bundle gets the version as a constant instead.
 */
const packageVersion: Plugin = {
  name: 'package-version',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]config\.ts$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const read = "createRequire(import.meta.url)('../package.json')";
      if (!source.includes(read)) {
        throw new Error(
          `Failed to bundle the CLI: ${path} no longer reads ${read}; update ${import.meta.url}.`,
        );
      }
      const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
        version: string;
      };
      return { contents: source.replace(read, JSON.stringify({ version })), loader: 'ts' };
    });
  },
};

/**
 * JSON data (mime-db's 150 kB, loaded with express) as `JSON.parse('…')`: V8 parses a JSON string
 * faster, and keeps less of it, than the same data written as an object literal.
 */
const jsonAsString: Plugin = {
  name: 'json-as-string',
  setup(build) {
    build.onLoad({ filter: /\.json$/ }, async ({ path }) => {
      const json = JSON.stringify(JSON.parse(await readFile(path, 'utf8')));
      return { contents: `module.exports = JSON.parse(${JSON.stringify(json)});`, loader: 'js' };
    });
  },
};

// Chunk names carry a hash of their content, so each build's chunks are new files: the last build's
// would pile up beside them.
for (const name of await readdir('dist/cli')) {
  if (name.startsWith('lazy-')) await rm(`dist/cli/${name}`);
}

await build({
  entryPoints: ['src/cli/main.ts'],
  outdir: 'dist/cli',
  // What the CLI imports on first use (the gRPC binding and grpc-js) is a chunk of its own, read
  // only by a simulator that uses it. Chunks sit beside main.js: paths resolved from a module's URL
  // (the .proto files) count two levels up to the package root from any of them.
  splitting: true,
  chunkNames: 'lazy-[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ON_FIRST_USE,
  plugins: [packageVersion, jsonAsString],
  // The CommonJS dependencies (express and its kin) require() Node's own modules.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Without comments the file is ASCII: a single other character in it (there are some in comments)
  // makes V8 hold all of the source as UTF-16, twice the memory.
  minifyWhitespace: true,
  // Folds constants and drops dead branches (a quarter of the file, and 5 MB of idle RSS: less for
  // V8 to parse and hold). Identifiers keep their names: stack traces and `.name` stay readable.
  minifySyntax: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
