// Builds the page script (islands/page/app.ts), htmx (islands/page/htmx.ts) and one bundle per React
// island (islands/*.tsx) into static/dist, with content-hashed names and a manifest for the Go server.
import * as esbuild from 'esbuild';
import { readdirSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const outdir = 'static/dist';
const watch = process.argv.includes('--watch');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
writeFileSync(path.join(outdir, '.gitkeep'), '');

const islands = readdirSync('islands')
  .filter((f) => f.endsWith('.tsx'))
  .map((f) => path.join('islands', f));

const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['es2020'],
  outdir,
  metafile: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'info',
};

// The page script and htmx are classic scripts, so they run without module support and before islands.
const page = await esbuild.build({
  ...common,
  entryPoints: { app: 'islands/page/app.ts', htmx: 'islands/page/htmx.ts' },
  format: 'iife',
  entryNames: '[name]-[hash]',
});

const isl = islands.length
  ? await esbuild.build({
      ...common,
      entryPoints: islands,
      format: 'esm',
      splitting: true,
      jsx: 'automatic',
      entryNames: '[name]-[hash]',
      chunkNames: 'chunks/[name]-[hash]',
      // the gate's QR decoder (WebAssembly) is served from our own static files, never a CDN
      loader: { '.wasm': 'file' },
      assetNames: 'assets/[name]-[hash]',
      publicPath: '/static/dist/',
    })
  : { metafile: { outputs: {} } };

const manifest = {};
for (const [out, meta] of Object.entries({ ...page.metafile.outputs, ...isl.metafile.outputs })) {
  if (!meta.entryPoint) continue;
  const name = path.basename(meta.entryPoint).replace(/\.(tsx|ts|js)$/, '');
  const rel = (p) => p.replace(/^static\//, '');
  manifest[name] = {
    js: rel(out),
    imports: (meta.imports || []).filter((i) => i.kind === 'import-statement').map((i) => rel(i.path)),
  };
}
writeFileSync(path.join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2));
if (watch) console.log('watch mode is not supported; run again after changes');
