import { createFakeToolHost } from '@toolhost/testing';

async function main() {
  // No process, no disk: in-memory files, and a test suite that fails until the code is fixed.
  const host = createFakeToolHost({
    files: { 'src/sum.js': 'export const sum = (a, b) => a - b;\n' },
    commands: [
      {
        match: 'npm test',
        answer: ({ files }) => (files['src/sum.js'].includes('a + b') ? { output: '# pass 1\n' } : { output: '# fail 1\n', exitCode: 1 }),
      },
    ],
  });
  const before = await host.call('exec_command', { cmd: 'npm test' });
  await host.call('apply_patch', {
    input:
      '*** Begin Patch\n*** Update File: src/sum.js\n@@\n-export const sum = (a, b) => a - b;\n+export const sum = (a, b) => a + b;\n*** End Patch',
  });
  const after = await host.call('exec_command', { cmd: 'npm test' });
  console.log(before.data?.exit_code, after.data?.exit_code, host.calls.length); // 1 0 3
  await host.close();
}

void main();
