// The forbidden alert (core-platform.md §2.6): the server's template with its ${name}
// placeholders filled from the values it sent, the filled values highlighted.
import type { BanData, Forbidden } from '../api/types';
import type { MessageBoxOptions } from './dialogs';

/** The alert of a refused login (20101) or of a ban pushed over the socket. */
export function forbiddenAlert(f: Pick<Forbidden, 'template' | 'values'>): MessageBoxOptions {
  const values: Record<string, string> = f.values ?? {};
  const highlights: string[] = [];
  const message = f.template.replace(/\$\{(\w+)\}/g, (_, name: string) => {
    const v = values[name] ?? '';
    if (v) highlights.push(v);
    return v;
  });
  return { title: '温馨提示', message, highlights, confirmText: '好的' };
}

/** A BAN frame's value; null when it is not the ban data (the plain alert then). */
export function parseBan(value: string): BanData | null {
  try {
    const v = JSON.parse(value) as BanData;
    return typeof v?.template === 'string' && typeof v.status === 'number' ? v : null;
  } catch {
    return null;
  }
}
