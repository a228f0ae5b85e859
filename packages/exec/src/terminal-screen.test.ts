import { describe, expect, test } from 'vitest';
import { TerminalScreen } from './terminal-screen.js';

const bytes = (text: string) => new TextEncoder().encode(text);

async function render(screen: TerminalScreen, text: string): Promise<string> {
  screen.write(bytes(text));
  const captured = await screen.collect();
  return captured.head + captured.tail;
}

describe('TerminalScreen', () => {
  test('resolves carriage returns, erasing and colours', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 80 });
    expect(await render(screen, 'progress 10%\rprogress 50%\rprogress 100%\r\n\u001b[31mred\u001b[0m\r\n')).toBe('progress 100%\nred\n');
    screen.dispose();
  });

  test('resolves cursor movement', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 80 });
    expect(await render(screen, 'abc\u001b[2Dx\r\nline two\u001b[1A\u001b[3Gy\r\n\r\n')).toBe('axy\nline two\n');
    screen.dispose();
  });

  test('each collect returns only what appeared since the previous one', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 80 });
    expect(await render(screen, 'Name: ')).toBe('Name: ');
    expect(await render(screen, 'bob\r\nhello bob\r\n')).toBe('bob\nhello bob\n');
    expect(await render(screen, '')).toBe('');
    expect(await render(screen, 'next\r\n')).toBe('next\n');
    screen.dispose();
  });

  test('wrapped lines come back as one logical line', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 10 });
    expect(await render(screen, `${'0123456789'.repeat(3)}\r\n`)).toBe(`${'0123456789'.repeat(3)}\n`);
    screen.dispose();
  });

  test('a window larger than the scrollback keeps its head and its last lines', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 80, scrollback: 200, headLines: 20 });
    let text = '';
    for (let i = 0; i < 2000; i++) text += `line ${i}\r\n`;
    screen.write(bytes(text));
    const captured = await screen.collect();
    expect(captured.head.startsWith('line 0\nline 1\n')).toBe(true);
    expect(captured.head.split('\n').length).toBe(21);
    expect(captured.tail.endsWith('line 1999\n')).toBe(true);
    expect(captured.omittedChars).toBeGreaterThan(0);
    expect(captured.omittedLines).toBeGreaterThan(1000);
    // The next window starts cleanly after the cursor.
    expect(await render(screen, 'after\r\n')).toBe('after\n');
    screen.dispose();
  });

  test('a window between half the scrollback and the scrollback is returned whole', async () => {
    const screen = new TerminalScreen({ rows: 24, cols: 80, scrollback: 200, headLines: 20 });
    let text = '';
    for (let i = 0; i < 150; i++) text += `line ${i}\r\n`;
    const rendered = await render(screen, text);
    expect(rendered).toBe(text.replaceAll('\r\n', '\n'));
    screen.dispose();
  });
});
