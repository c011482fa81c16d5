// A production webpack 5 build of the consumer project in the current folder: main.js (tsc's
// output of main.ts) and what it imports, into dist/ beside index.html. The configuration is
// what any webpack project states (mode, entry, output); nothing in it is about glsolve.
import webpack from 'webpack';
import { copyFileSync } from 'node:fs';
import { resolve } from 'node:path';

const context = process.cwd();
const config = {
  mode: 'production',
  context,
  entry: './main.js',
  output: { path: resolve(context, 'dist'), filename: 'main.js', clean: true },
};

webpack(config, (err, stats) => {
  if (err || stats.hasErrors()) {
    console.error(err ?? stats.toString({ all: false, errors: true }));
    process.exit(1);
  }
  copyFileSync(resolve(context, 'index.html'), resolve(context, 'dist/index.html'));
  console.log(stats.toString({ all: false, assets: true, warnings: true }));
});
