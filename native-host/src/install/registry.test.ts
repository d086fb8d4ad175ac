import { describe, expect, it } from 'vitest';
import { formatRegCommand, parseRegQuery, regAddArgs } from './registry';

describe('reg.exe', () => {
  it('prints the add command with the key and value quoted', () => {
    expect(
      formatRegCommand(
        regAddArgs('HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge', 'C:\\Users\\A B\\m.json'),
      ),
    ).toBe(
      'reg.exe add "HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge" /ve /t REG_SZ /d "C:\\Users\\A B\\m.json" /f',
    );
  });

  it('reads the default value from English and localised query output', () => {
    const key = 'HKEY_CURRENT_USER\\Software\\Google\\Chrome\\NativeMessagingHosts\\dev.tether.bridge';
    expect(parseRegQuery(`\r\n${key}\r\n    (Default)    REG_SZ    C:\\Users\\A B\\m.json\r\n\r\n`)).toBe(
      'C:\\Users\\A B\\m.json',
    );
    expect(parseRegQuery(`\r\n${key}\r\n    (Standard)    REG_SZ    C:\\x.json\r\n\r\n`)).toBe('C:\\x.json');
    expect(parseRegQuery(`\r\n${key}\r\n    (Default)    REG_SZ    (value not set)\r\n`)).toBeUndefined();
    expect(
      parseRegQuery('ERROR: The system was unable to find the specified registry key or value.\r\n'),
    ).toBeUndefined();
  });
});
