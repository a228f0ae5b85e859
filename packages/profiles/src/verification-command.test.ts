import { describe, expect, it } from 'vitest';
import { isVerificationCommand } from './verification-command.js';

describe('isVerificationCommand', () => {
  it.each([
    'npm test',
    'npm run test',
    'npm run test:unit -- --run',
    'pnpm typecheck',
    'yarn lint',
    'bun run build',
    'npx vitest run',
    'npx --yes tsc --noEmit',
    'pnpm exec jest src',
    'cd packages/core && npm test',
    'CI=1 npm test',
    'time cargo test --workspace',
    'timeout 600 go test ./...',
    'pytest -q tests/',
    'python3 -m pytest',
    'python -m unittest discover',
    'cargo clippy -- -D warnings',
    'go vet ./...',
    'make',
    'make test',
    'mvn -q verify',
    './gradlew build',
    'dotnet test',
    'bundle exec rspec',
    'node --test',
    'ruff check .',
    'npm install; npm test',
    'npm test 2>&1',
  ])('counts %j', (cmd) => {
    expect(isVerificationCommand(cmd)).toBe(true);
  });

  it.each([
    'cat jest.config.js',
    'echo npm test',
    'grep -r vitest package.json',
    'rg eslint',
    'tsc --version',
    'npx vitest --help',
    'true # pytest',
    'npm test || true',
    'npm test | tail -20',
    'npm test; echo done',
    'npm test &',
    'npm ci',
    'npm install',
    'npm run dev',
    'cargo run',
    'go run .',
    'make clean',
    'ls',
    'sed -n 1,20p src/index.ts',
    'git status',
    'python3 script.py',
    '',
  ])('does not count %j', (cmd) => {
    expect(isVerificationCommand(cmd)).toBe(false);
  });
});
