import { describe, expect, it } from 'vitest';
import { DESKTOP_RULES, MOBILE_RULES, dataUrlBytes, fileTooLargeMessage, formatBytes } from './photoRules';

describe('photo rules (spec §5, §9)', () => {
  it('words the size limit per device', () => {
    expect(fileTooLargeMessage(12.5 * 1024 * 1024, DESKTOP_RULES)).toBe(
      'File size (12.5 MB) exceeds the desktop limit of 10 MB. Try using a smaller image.',
    );
    expect(fileTooLargeMessage(6 * 1024 * 1024, MOBILE_RULES)).toBe(
      'File size (6 MB) exceeds the mobile limit of 5 MB. Try using a smaller image.',
    );
    expect(formatBytes(800 * 1024)).toBe('800 KB');
  });

  it('knows the decoded size of a data URL', () => {
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('hello world').toString('base64')}`)).toBe(11);
    expect(dataUrlBytes(`data:image/png;base64,${Buffer.from('hi').toString('base64')}`)).toBe(2);
  });
});
