#!/usr/bin/env bash
# Type-checks a consumer against the built .d.ts files, then loads every built package through require and import.
set -euo pipefail
cd "$(dirname "$0")"
npx tsc -p tsconfig.json
cd ../..
node - <<'JS'
const { readdirSync, readFileSync } = require('node:fs');
const names = readdirSync('packages').map((dir) => JSON.parse(readFileSync(`packages/${dir}/package.json`, 'utf8')).name);
(async () => {
  for (const name of names) {
    const viaRequire = require(name);
    const viaImport = await import(name);
    if (Object.keys(viaRequire).length === 0 || Object.keys(viaImport).length === 0) throw new Error(`${name} exports nothing`);
  }
  const { createToolHost } = require('toolhost');
  const host = createToolHost({ workspace: process.cwd() });
  const result = await host.call('exec_command', { cmd: 'echo consumer-ok' });
  await host.close();
  console.log(`loaded ${names.length} packages through require and import; tools: ${host.tools.map((t) => t.name).join(', ')}; exec ok: ${result.ok}`);
})().catch((error) => { console.error(error); process.exit(1); });
JS
